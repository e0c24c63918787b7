package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.Strictness;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.LocalThrottlerState;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.event.TaskHistory;
import io.taskgate.engine.event.TaskTransitions;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.handler.ThrottlerSpec;
import io.taskgate.engine.handler.ThrottlingSpec;
import io.taskgate.engine.throttle.JobThrottlerReads;
import io.taskgate.engine.throttle.JobThrottlerReads.Resolved;
import io.taskgate.engine.throttle.ResourceWaiters;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottlerWaits;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.engine.time.CachedRead;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.ThrottlerRecord;
import io.taskgate.store.ThrottlerStore;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * The job throttlers of this application: builds each task type's {@link FamilyThrottle}s, keeps
 * their state ({@link ThrottlerState}) and the definitions of semaphores and windows (read from the
 * {@link ThrottlerStore}, cached, re-read every {@link #DEFINITIONS_TTL} so that a change made on
 * another instance arrives), gives back what a task holds when it reaches a final state whatever
 * the path (cancelled while waiting for its retry, say), and keeps the tasks waiting for a resource
 * ({@link #waiters}).
 */
@ApplicationScoped
public class JobThrottlers implements ThrottlerWaits {
  private static final Logger LOG = Logger.getLogger(JobThrottlers.class.getName());

  /** Config key: the default throttling action, WAIT or DROP. */
  public static final String ACTION_KEY = "taskgate.throttling.action";

  /** Config key: the default max wait (ISO-8601), unset for none. */
  public static final String MAX_WAIT_KEY = "taskgate.throttling.max-wait";

  /** Config key: whether throttles are strict by default. */
  public static final String STRICT_KEY = "taskgate.throttling.strict";

  /** Config key: how often a task waiting for a release looks again by itself. */
  public static final String RECHECK_KEY = "taskgate.throttling.recheck";

  /** How long definitions are cached before they are read again. */
  static final Duration DEFINITIONS_TTL = Duration.ofSeconds(2);

  @Inject ThrottlerStore store;
  @Inject InstantSource clock;
  @Inject Config config;
  @Inject TaskTransitions transitions;
  @Inject TaskHistory history;
  @Resource ManagedExecutorService executor;

  private final AtomicBoolean subscribed = new AtomicBoolean();

  @Inject Throttles throttles;
  private volatile ThrottlerState state = new LocalThrottlerState();
  private volatile Map<String, ThrottlerRecord> definitions = Map.of();
  private final CachedRead cache = new CachedRead(DEFINITIONS_TTL, () -> reload(clock.instant()));
  private final ThrottleStats stats = new ThrottleStats();
  private final ConcurrentHashMap<String, Set<String>> retrying = new ConcurrentHashMap<>();

  private ThrottlingAction defaultAction;
  private Duration defaultMaxWait;
  private boolean defaultStrict;
  private Duration recheck;

  @PostConstruct
  void readSettings() {
    stats.onTask(history::throttleWaited, history::throttleDropped);
    String action = config.getOptionalValue(ACTION_KEY, String.class).orElse("WAIT").trim();
    ThrottlingAction parsed;
    try {
      parsed = ThrottlingAction.valueOf(action.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      parsed = ThrottlingAction.CONFIGURED;
    }
    if (parsed == ThrottlingAction.CONFIGURED) {
      throw new IllegalArgumentException(
          "Taskgate: " + ACTION_KEY + " must be WAIT or DROP, was '" + action + "'");
    }
    configure(
        parsed,
        config
            .getOptionalValue(MAX_WAIT_KEY, String.class)
            .map(v -> PositiveDurations.parse(MAX_WAIT_KEY, v))
            .orElse(null),
        config.getOptionalValue(STRICT_KEY, Boolean.class).orElse(false),
        PositiveDurations.parse(
            RECHECK_KEY, config.getOptionalValue(RECHECK_KEY, String.class).orElse("PT30S")));
  }

  /**
   * The global defaults: {@code action} (WAIT or DROP), {@code maxWait} (null: none), whether
   * throttles are {@code strict}, and how often a waiting task looks again by itself.
   */
  void configure(ThrottlingAction action, Duration maxWait, boolean strict, Duration recheck) {
    this.defaultAction = action;
    this.defaultMaxWait = maxWait;
    this.defaultStrict = strict;
    this.recheck = recheck;
  }

  /** The name the waiters and views use for throttler {@code id} of {@code kind}. */
  public static String resource(ThrottlerKind kind, String id) {
    return JobThrottlerReads.resource(kind, id);
  }

  /** {@code spec} with the global defaults applied. */
  public Resolved resolve(ThrottlingSpec spec) {
    return new Resolved(
        spec.action() == ThrottlingAction.CONFIGURED ? defaultAction : spec.action(),
        spec.maxWait().orElse(defaultMaxWait),
        strict(spec));
  }

  /** The throttles of {@code handler}'s task type; empty if it names none. */
  public List<Throttle> throttlesOf(HandlerInfo handler) {
    if (handler.throttling().isEmpty()) {
      return List.of();
    }
    ThrottlingSpec spec = handler.throttling().get();
    Resolved resolved = resolve(spec);
    if (spec.holds()) {
      subscribe();
    }
    List<Throttle> throttles = new ArrayList<>();
    for (ThrottlerSpec throttler : spec.throttlers()) {
      throttles.add(
          new FamilyThrottle(
              throttler,
              handler.beanClass().getName(),
              this,
              resolved.action(),
              resolved.maxWait(),
              resolved.strict()));
    }
    return throttles;
  }

  /** Task {@code taskId} waits for window {@code resource} to open (or no longer does). */
  void retrying(String resource, String taskId, boolean waits) {
    if (waits) {
      retrying.computeIfAbsent(resource, r -> ConcurrentHashMap.newKeySet()).add(taskId);
    } else {
      retrying.computeIfPresent(
          resource,
          (r, tasks) -> {
            tasks.remove(taskId);
            return tasks.isEmpty() ? null : tasks;
          });
    }
  }

  /** The tasks waiting for window {@code resource} to open. */
  public Set<String> retrying(String resource) {
    Set<String> tasks = retrying.get(resource);
    return tasks == null ? Set.of() : Set.copyOf(tasks);
  }

  @Override
  public Set<UUID> waitingIds() {
    Set<UUID> ids = new java.util.HashSet<>(waiters().waitingIds());
    retrying.values().forEach(tasks -> tasks.forEach(id -> ids.add(UUID.fromString(id))));
    return ids;
  }

  @Override
  public java.util.Optional<String> waitingFor(UUID taskId) {
    java.util.Optional<String> resource = waiters().waitsFor(taskId);
    if (resource.isPresent() || retrying.isEmpty()) {
      return resource;
    }
    String id = taskId.toString();
    return retrying.entrySet().stream()
        .filter(e -> e.getValue().contains(id))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  /** Every definition, by kind then id. */
  public List<ThrottlerRecord> definitionList() {
    return definitions().values().stream()
        .sorted(
            java.util.Comparator.comparing(ThrottlerRecord::kind)
                .thenComparing(ThrottlerRecord::id))
        .toList();
  }

  /**
   * Whether the tasks of {@code handler} that one worker runs in a batch share one permit of a
   * semaphore (see {@link FamilyThrottle}): relaxed throttling, no rate limit.
   */
  public boolean sharesPermits(HandlerInfo handler) {
    return handler.throttling().isPresent()
        && !strict(handler.throttling().get())
        && handler.gate().isEmpty();
  }

  boolean strict(ThrottlingSpec spec) {
    return spec.strictness() == Strictness.CONFIGURED
        ? defaultStrict
        : spec.strictness() == Strictness.STRICT;
  }

  /**
   * Takes again, before any task runs, the mutexes and semaphores of the tasks that hold them in
   * the store ({@link RetakenHolds}), and the window counts, unless the state kept them (the data
   * grid's, other members up). Returns how many holds it took.
   */
  public int rebuild(Collection<HandlerInfo> handlers, TaskQueries queries, Payloads payloads) {
    boolean needed = state.rebuildNeeded();
    restoreCounts(needed);
    if (!needed) {
      return 0;
    }
    int held = new RetakenHolds(this).rebuild(handlers, queries, payloads);
    if (held > 0) {
      subscribe();
    }
    return held;
  }

  /**
   * Drops the window counts stored for buckets out of every window (older than the longest defined
   * interval, at least a day when none is), and if {@code restore} reads the others back.
   */
  private void restoreCounts(boolean restore) {
    long now = clock.instant().toEpochMilli();
    long longest = Duration.ofDays(1).toMillis();
    for (ThrottlerRecord record : definitionList()) {
      longest = Math.max(longest, record.intervalMillis());
    }
    store.dropCounts(now - longest);
    if (!restore) {
      return;
    }
    for (ThrottlerStore.WindowCount count : store.counts(now - longest)) {
      state.restore(count.resource(), count.sub(), count.bucketStart(), count.count());
    }
  }

  /**
   * A start was counted in (or, {@code delta} -1, given back to) window {@code resource}: stored
   * before the task runs, so that a restart reads it back and lets no burst through. A failure to
   * store is logged; the count in memory stands.
   */
  void counted(String resource, String sub, long bucketStart, int delta) {
    try {
      store.addCount(resource, sub, bucketStart, delta);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate could not store a start of " + resource + "; a restart may not count it",
          e);
    }
  }

  /** Listens for tasks reaching a final state, once. */
  private void subscribe() {
    if (subscribed.compareAndSet(false, true)) {
      transitions.subscribe(
          t -> {
            if (t.to() != null && t.to().terminal()) {
              ended(t.taskId());
            }
          });
    }
  }

  /** The tasks waiting for a resource to be released. */
  public ResourceWaiters waiters() {
    return throttles.waiters();
  }

  /**
   * Task {@code taskId} reached a final state: it gives back whatever it still holds (a strict
   * permit kept across retries, one re-entered after a crash) and waits for nothing.
   */
  public void ended(UUID taskId) {
    waiters().forget(taskId);
    stats.forget(taskId.toString());
    if (!retrying.isEmpty()) {
      for (String resource : retrying.keySet()) {
        retrying(resource, taskId.toString(), false);
      }
    }
    Set<String> freed = state.releaseAll(taskId.toString());
    throttles.freed(freed);
  }

  /** Semaphore {@code resource} grew by {@code permits}: see {@link SemaphoreGrowth}. */
  void grew(String resource, int permits) {
    SemaphoreGrowth.wake(executor, resource, permits, this::wakeHere, state);
  }

  /** Wakes at most {@code permits} of the tasks waiting here for {@code resource}; how many. */
  int wakeHere(String resource, int permits) {
    return SemaphoreGrowth.wakeHere(waiters(), throttles::freed, resource, permits);
  }

  /** Where the throttlers' state is. */
  public ThrottlerState state() {
    return state;
  }

  /**
   * Uses {@code state} from now on (the data grid's, in a cluster); what it frees outside this
   * instance's attempts wakes the tasks waiting here.
   */
  public void useState(ThrottlerState state) {
    this.state = state;
    state.onFreedElsewhere(throttles::freed);
    state.onGrownElsewhere(this::wakeHere);
  }

  Duration recheck() {
    return recheck;
  }

  /** Semaphore {@code id}'s max count; null if it is not defined. */
  public Integer semaphore(String id) {
    ThrottlerRecord record = definitions().get(resource(ThrottlerKind.SEMAPHORE, id));
    return record == null ? null : record.limit();
  }

  /** Window {@code id}'s definition; null if it is not defined. */
  public WindowOptions window(ThrottlerKind kind, String id) {
    ThrottlerRecord record = definitions().get(resource(kind, id));
    return record == null ? null : DefaultThrottlingManager.options(record);
  }

  /**
   * The definitions, by {@code kind:id}: read at the first call, then again off the caller's thread
   * once older than the TTL (on it without an executor, outside the container).
   */
  Map<String, ThrottlerRecord> definitions() {
    cache.refreshIfStale(clock.instant(), executor);
    return definitions;
  }

  /** Reads the definitions again now. */
  synchronized void reload(Instant now) {
    Map<String, ThrottlerRecord> read = new HashMap<>();
    for (ThrottlerRecord record : store.definitions()) {
      read.put(resource(record.kind(), record.id()), record);
    }
    definitions = Map.copyOf(read);
    cache.read(now);
  }

  /** What each throttle did since this instance started. */
  public ThrottleStats stats() {
    return stats;
  }
}
