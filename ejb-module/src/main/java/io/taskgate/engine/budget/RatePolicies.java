package io.taskgate.engine.budget;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.SettingRanges;
import io.taskgate.core.limit.Limit;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.time.CachedRead;
import io.taskgate.store.ThrottlerStore;
import io.taskgate.store.ThrottlerStore.RateOverride;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The rate limits changed at run time ({@code ThrottlingManager.setRateLimit}), per task type and
 * per key, over the policies of the annotations: read from the {@link ThrottlerStore}, re-read
 * every {@link #TTL} so that a change made on another instance arrives, and at once after a change
 * made here. A key's policy keeps the key's state (its next slot): the limiter computes each
 * reservation with the policy it is given. Thread-safe.
 */
@ApplicationScoped
public class RatePolicies {
  private static final Logger LOG = Logger.getLogger(RatePolicies.class.getName());

  /** How long the changes are cached before they are read again. */
  static final Duration TTL = Duration.ofSeconds(2);

  @Inject ThrottlerStore store;
  @Inject InstantSource clock;

  /** For CDI. */
  public RatePolicies() {}

  /** The run-time changes stored in {@code store}, for tests and code outside the container. */
  public static RatePolicies of(ThrottlerStore store, InstantSource clock) {
    RatePolicies policies = new RatePolicies();
    policies.store = store;
    policies.clock = clock;
    return policies;
  }

  @Resource ManagedExecutorService executor;

  private volatile Map<String, RateOverride> overrides = Map.of();
  private final CachedRead cache = new CachedRead(TTL, () -> reload(clock.instant()));
  private final Map<String, RateLimitScope> scopes = new java.util.concurrent.ConcurrentHashMap<>();

  /** The scope a task of {@code gate}'s type and {@code key} reserves in: its policy now. */
  public RateLimitScope scopeOf(GateSpec gate, String key) {
    Map<String, RateOverride> now = overrides();
    if (now.isEmpty()) {
      return gate.scope();
    }
    String type = gate.scope().name();
    RateOverride override = key == null ? null : now.get(id(type, key));
    if (override == null) {
      override = now.get(id(type, null));
    }
    if (override == null) {
      return gate.scope();
    }
    RateOverride found = override;
    return scopes.computeIfAbsent(
        id(type, found.key()) + "\n" + found.describe(), k -> scope(gate, found));
  }

  /**
   * The scope of {@code gate}'s type with {@code override}; the annotation's when the override,
   * stored before the ranges were checked, lies outside them (logged once per override).
   */
  private static RateLimitScope scope(GateSpec gate, RateOverride override) {
    try {
      return new RateLimitScope(gate.scope().name(), apply(gate.policy(), override));
    } catch (IllegalArgumentException e) {
      LOG.warning(
          "Taskgate ignores the stored rate-limit change of "
              + override.auditId()
              + " ("
              + override.describe()
              + "): "
              + e.getMessage()
              + "; its tasks keep the declared policy until an admin sets or resets it");
      return gate.scope();
    }
  }

  /**
   * {@code base} with the permits, period and burst of {@code override}.
   *
   * @throws IllegalArgumentException naming the field and the value, if one is outside {@link
   *     SettingRanges}
   */
  public static RateLimitPolicy apply(RateLimitPolicy base, RateOverride override) {
    return Limit.taskRate(
            override.permits(), Duration.ofNanos(override.periodNanos()), override.burst())
        .applyTo(base);
  }

  /**
   * The limit a stored change gives (a task type's or key's, or a limiter's).
   *
   * @throws IllegalArgumentException naming the field and the value, if it is not a limit
   */
  public static Limit limit(RateOverride override) {
    return new Limit(
        override.permits(), Duration.ofNanos(override.periodNanos()), override.burst());
  }

  /**
   * The change that gives {@code limit} to task type {@code taskType} (or {@code key} of it; null
   * for the whole type), or to a limiter named so.
   *
   * @throws ArithmeticException if the period does not fit in a long of nanoseconds
   */
  public static RateOverride override(String taskType, String key, Limit limit) {
    return new RateOverride(taskType, key, limit.permits(), limit.periodNanos(), limit.burst());
  }

  /** The change for {@code type} ({@code key} null) or one of its keys, if any. */
  public Optional<RateOverride> override(String type, String key) {
    return Optional.ofNullable(overrides().get(id(type, key)));
  }

  /**
   * Every change, by type and key. Read at the first call; after that, once the cache is older than
   * {@link #TTL}, read again off the caller's thread (the gate never waits for the database), or on
   * it when there is no executor (outside the container).
   */
  public Map<String, RateOverride> overrides() {
    cache.refreshIfStale(clock.instant(), executor);
    return overrides;
  }

  /** Reads the changes again now (after a change made here). */
  public synchronized void reload(Instant now) {
    try {
      Map<String, RateOverride> fresh = new HashMap<>();
      for (RateOverride o : store.rateOverrides()) {
        fresh.put(id(o.taskType(), o.key()), o);
      }
      if (!fresh.equals(overrides)) {
        scopes.clear();
      }
      overrides = Map.copyOf(fresh);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate could not read the rate-limit changes; kept the last", e);
    }
    cache.read(now);
  }

  private static String id(String type, String key) {
    return key == null ? type : type + "\n" + key;
  }
}
