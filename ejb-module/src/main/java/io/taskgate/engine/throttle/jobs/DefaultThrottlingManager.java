package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.SettingRanges;
import io.taskgate.api.Task;
import io.taskgate.api.ThrottlerInUseException;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlingManager;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.limit.Limit;
import io.taskgate.core.throttle.JobKind;
import io.taskgate.core.throttle.ResourceTemplate;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.limiter.LimitSpec;
import io.taskgate.engine.limiter.LimiterChanges;
import io.taskgate.engine.throttle.JobThrottlerReads;
import io.taskgate.engine.throttle.ThrottlerChanges;
import io.taskgate.store.ThrottlerChange;
import io.taskgate.store.ThrottlerRecord;
import io.taskgate.store.ThrottlerStore;
import io.taskgate.store.ThrottlerStore.RateOverride;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The {@link ThrottlingManager} applications inject: definitions stored through the {@link
 * ThrottlerStore} (each change audited), taking effect on this instance at once and on the others
 * within {@link JobDefinitions#TTL}. Code calling it is audited as {@link #APPLICATION}; the REST
 * API passes the user.
 */
@ApplicationScoped
public class DefaultThrottlingManager implements ThrottlingManager, ThrottlerChanges {
  private static final Logger LOG = Logger.getLogger(DefaultThrottlingManager.class.getName());

  /** Who the audit names for changes made by application code. */
  public static final String APPLICATION = "application";

  private final ThrottlerStore store;
  private final JobThrottlers throttlers;
  private final InstantSource clock;
  private final RatePolicies rates;
  private final HandlerRegistry registry;
  private final LimiterChanges limiterChanges;

  /** For the CDI proxy. */
  protected DefaultThrottlingManager() {
    this(null, null, null, null, null, null);
  }

  @Inject
  DefaultThrottlingManager(
      ThrottlerStore store,
      JobThrottlers throttlers,
      InstantSource clock,
      RatePolicies rates,
      HandlerRegistry registry,
      LimiterChanges limiterChanges) {
    this.store = store;
    this.throttlers = throttlers;
    this.clock = clock;
    this.rates = rates;
    this.registry = registry;
    this.limiterChanges = limiterChanges;
  }

  @Override
  public void addOrUpdateSemaphore(String id, int maxCount) {
    addOrUpdateSemaphore(id, maxCount, APPLICATION);
  }

  /** {@link #addOrUpdateSemaphore(String, int)}, audited as made by {@code by}. */
  public ThrottlerRecord addOrUpdateSemaphore(String id, int maxCount, String by) {
    SettingRanges.count("maxCount", maxCount);
    return put(new ThrottlerRecord(ThrottlerKind.SEMAPHORE, id(id), maxCount, 0, 0, 0, 0, 0), by);
  }

  @Override
  public void addOrUpdateWindow(ThrottlerKind kind, String id, WindowOptions options) {
    addOrUpdateWindow(kind, id, options, APPLICATION);
  }

  /** {@link #addOrUpdateWindow(ThrottlerKind, String, WindowOptions)}, audited as {@code by}. */
  public ThrottlerRecord addOrUpdateWindow(
      ThrottlerKind kind, String id, WindowOptions options, String by) {
    Objects.requireNonNull(options, "options");
    switch (kind) {
      case FIXED_WINDOW -> {
        if (options.buckets() != 1) {
          throw new IllegalArgumentException(
              "a fixed window has 1 bucket, was " + options.buckets() + ": use a sliding window");
        }
        dynamicOnly(options);
      }
      case SLIDING_WINDOW -> dynamicOnly(options);
      case DYNAMIC_WINDOW -> {
        // capacity and rebalancing are its own
      }
      default ->
          throw new IllegalArgumentException(
              kind.label()
                  + " is not a window: use fixed-window, sliding-window or dynamic-window");
    }
    return put(
        new ThrottlerRecord(
            kind,
            id(id),
            options.limit(),
            options.interval().toMillis(),
            options.buckets(),
            options.capacity(),
            options.minLimit(),
            options.maxLimit()),
        by);
  }

  private static void dynamicOnly(WindowOptions options) {
    if (options.capacity() != 0 || options.isRebalanced()) {
      throw new IllegalArgumentException(
          "capacity, minLimit and maxLimit are for dynamic windows only");
    }
  }

  private ThrottlerRecord put(ThrottlerRecord record, String by) {
    Optional<ThrottlerRecord> before = store.put(record, by, clock.instant());
    throttlers.definitions().reload(clock.instant());
    if (before.isEmpty() || !before.get().equals(record)) {
      LOG.info(
          () ->
              "Taskgate: "
                  + record.kind().label()
                  + " '"
                  + record.id()
                  + "' "
                  + before
                      .map(b -> "changed by " + by + " from " + b.describe() + " to ")
                      .orElse("added by " + by + ": ")
                  + record.describe());
    }
    // a larger semaphore lets waiters in: at most as many as it has new permits, off this thread
    if (JobKind.of(record.kind()).holds()) {
      int more = record.limit() - before.map(ThrottlerRecord::limit).orElse(0);
      throttlers.grew(JobThrottlerReads.resource(record.kind(), record.id()), more);
    }
    return record;
  }

  @Override
  public boolean remove(ThrottlerKind kind, String id) {
    return remove(kind, id, APPLICATION);
  }

  /** {@link #remove(ThrottlerKind, String)}, audited as made by {@code by}. */
  public boolean remove(ThrottlerKind kind, String id, String by) {
    if (JobKind.isJob(kind) && !JobKind.of(kind).defined()) {
      throw new IllegalArgumentException(
          "mutexes are not defined, so they cannot be removed: they exist while held");
    }
    String normalised = id(id);
    if (JobKind.isJob(kind) && JobKind.of(kind).holds()) {
      int holders = throttlers.state().owners(JobThrottlerReads.resource(kind, normalised));
      if (holders > 0) {
        throw new ThrottlerInUseException(kind, normalised, holders);
      }
    }
    boolean removed = store.remove(kind, normalised, by, clock.instant()).isPresent();
    throttlers.definitions().reload(clock.instant());
    if (removed) {
      LOG.info(() -> "Taskgate: " + kind.label() + " '" + normalised + "' removed by " + by);
    }
    return removed;
  }

  @Override
  public Optional<Integer> semaphore(String id) {
    return Optional.ofNullable(throttlers.definitions().semaphore(id(id)));
  }

  @Override
  public Optional<WindowOptions> window(ThrottlerKind kind, String id) {
    return Optional.ofNullable(throttlers.definitions().window(kind, id(id)));
  }

  @Override
  public void setRateLimit(
      Class<? extends Task> taskType, String key, int permits, Duration period, int burst) {
    setRateLimit(taskType.getName(), key, permits, period, burst, APPLICATION);
  }

  /**
   * {@link #setRateLimit(Class, String, int, Duration, int)} for the task type named {@code
   * taskType} (its class name), audited as {@code by}; returns the policy its tasks now get. {@code
   * key} null changes the whole type; an empty key, or one with a NUL character, is refused.
   */
  public RateLimitPolicy setRateLimit(
      String taskType, String key, int permits, Duration period, int burst, String by) {
    if (key != null) {
      SettingRanges.key("key", key);
    }
    GateSpec gate = gateOf(taskType);
    Limit limit = Limit.taskRate(permits, period, burst); // the ranges first: a period that fits
    RateOverride override = RatePolicies.override(taskType, key, limit);
    RateLimitPolicy policy;
    try {
      policy = RatePolicies.apply(gate.policy(), override);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          e.getMessage().replaceFirst("^Invalid rate-limit policy: ", ""), e);
    }
    Optional<RateOverride> before = store.putRateOverride(override, by, clock.instant());
    rates.reload(clock.instant());
    if (before.isEmpty() || !before.get().equals(override)) {
      LOG.info(
          () ->
              "Taskgate: rate limit of "
                  + override.auditId()
                  + " set by "
                  + by
                  + " to "
                  + override.describe()
                  + before.map(b -> " (was " + b.describe() + ")").orElse(""));
    }
    return policy;
  }

  @Override
  public boolean resetRateLimit(Class<? extends Task> taskType, String key) {
    return resetRateLimit(taskType.getName(), key, APPLICATION);
  }

  /** {@link #resetRateLimit(Class, String)} by type name, audited as {@code by}. */
  public boolean resetRateLimit(String taskType, String key, String by) {
    if (key != null) {
      SettingRanges.key("key", key);
    }
    gateOf(taskType);
    boolean removed = store.removeRateOverride(taskType, key, by, clock.instant()).isPresent();
    rates.reload(clock.instant());
    return removed;
  }

  @Override
  public Optional<RateLimitPolicy> rateLimit(Class<? extends Task> taskType, String key) {
    return registry
        .find(taskType.getName())
        .flatMap(HandlerInfo::gate)
        .map(gate -> rates.scopeOf(gate, key).policy());
  }

  private GateSpec gateOf(String taskType) {
    HandlerInfo handler =
        registry
            .find(taskType)
            .orElseThrow(
                () -> new IllegalArgumentException("no handler runs task type " + taskType));
    return handler
        .gate()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "task type "
                        + taskType
                        + " has no rate limit to change: give its handler a @RateLimit and its"
                        + " tasks a key"));
  }

  @Override
  public void setLimiter(String name, int permits, Duration period, int burst) {
    setLimiter(name, permits, period, burst, APPLICATION);
  }

  /**
   * {@link #setLimiter(String, int, Duration, int)}, audited as {@code by}; returns the limit the
   * limiter now has.
   */
  public LimitSpec setLimiter(String name, int permits, Duration period, int burst, String by) {
    return limiterChanges.set(name, permits, period, burst, by);
  }

  @Override
  public boolean resetLimiter(String name) {
    return resetLimiter(name, APPLICATION);
  }

  /** {@link #resetLimiter(String)}, audited as {@code by}. */
  public boolean resetLimiter(String name, String by) {
    return limiterChanges.reset(name, by);
  }

  /** The latest {@code max} changes of definitions, newest first. */
  public List<ThrottlerChange> changes(int max) {
    return store.changes(max);
  }

  /** The definition {@code record} holds, as the API's options. */
  static WindowOptions options(ThrottlerRecord record) {
    return new WindowOptions(
        record.limit(),
        Duration.ofMillis(record.intervalMillis()),
        record.buckets(),
        record.capacity(),
        record.minLimit(),
        record.maxLimit());
  }

  private static String id(String id) {
    if (id == null) {
      throw new IllegalArgumentException("id must be given");
    }
    return ResourceTemplate.normalise(id, id);
  }
}
