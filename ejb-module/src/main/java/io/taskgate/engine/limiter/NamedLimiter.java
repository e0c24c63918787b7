package io.taskgate.engine.limiter;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.LimiterStats;
import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.engine.event.MinuteCounts.Count;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One named limiter of {@code @RateLimited} methods: a budget per key (memory bounded by the spec's
 * {@code maxKeys}, idle keys dropped) and, when its spec lets calls wait, a bounded queue per key.
 * Counts what it granted, refused, let through untracked and made wait. Thread safe; the no-wait
 * path is lock free. Times are readings of one monotonic clock.
 *
 * <p>A new key when {@code maxKeys} keys are busy is let through untracked (fail open): a full
 * table must not refuse callers it never saw.
 *
 * <p>{@link #update} changes the limit at run time: the next call uses the new spec with fresh
 * budgets; calls already waiting are served by the old one.
 */
public final class NamedLimiter {

  /** Idle keys and empty queues are dropped at most this often (and whenever the table is full). */
  static final long SWEEP_INTERVAL_NANOS = 10_000_000_000L;

  /** How soon a waiting call asks again when a refusal carries no retry-after (concurrency). */
  static final Duration POLL_INTERVAL = Duration.ofMillis(50);

  /** The key of an unkeyed limiter's one budget. */
  public static final String NO_KEY = "";

  /** The lease of a call let through untracked (fail open). */
  static final RateLimitLease UNTRACKED = RateLimitLease.acquired(1, () -> {}); // its own instance

  private final String name;
  private final LimitSpec declared;
  private final LongSupplier clock;
  private final ScheduledExecutorService scheduler;
  private final SharedBudgets shared;
  private final Consumer<Count> counted;
  private volatile State state;
  private final LongAdder granted = new LongAdder();
  private final LongAdder rejected = new LongAdder();
  private final LongAdder failedOpen = new LongAdder();
  private final LongAdder waited = new LongAdder();
  private final LongAdder waitNanos = new LongAdder();
  private final RecentCount recentRejections = new RecentCount();
  private final AtomicLong nextSweep;

  /** A spec and the budgets and queues made by it. */
  private record State(
      LimitSpec spec,
      KeyBudgets keys,
      int permitLimit,
      WaitingRateLimiterOptions waiting,
      Map<String, WaitingRateLimiter> queues,
      boolean releaseWakes) {

    static State of(LimitSpec spec, SharedBudgets shared) {
      return new State(
          spec,
          KeyBudgets.of(spec, shared, spec.name()),
          spec.newLimiter().permitLimit(),
          new WaitingRateLimiterOptions(spec.queueLimit(), spec.queueOrder(), POLL_INTERVAL),
          new ConcurrentHashMap<>(),
          spec.waits() && spec.algorithm() == LimiterAlgorithm.CONCURRENCY);
    }
  }

  /**
   * @param spec what the limiter is
   * @param clock the monotonic clock, in nanoseconds
   * @param scheduler retries and times out waiting calls
   * @param shared the cluster's budgets, for a spec whose scope is the cluster
   */
  public NamedLimiter(
      LimitSpec spec,
      LongSupplier clock,
      ScheduledExecutorService scheduler,
      SharedBudgets shared) {
    this(spec, clock, scheduler, shared, count -> {});
  }

  /**
   * @param spec what the limiter is
   * @param clock the monotonic clock, in nanoseconds
   * @param scheduler retries and times out waiting calls
   * @param shared the cluster's budgets, for a spec whose scope is the cluster
   * @param counted told of each call granted ({@link Count#CALL_GRANTED}, and {@link
   *     Count#CALL_WAITED} when it waited), refused or let through untracked ({@link
   *     Count#FAILED_OPEN}): the history's counts of the limiter
   */
  public NamedLimiter(
      LimitSpec spec,
      LongSupplier clock,
      ScheduledExecutorService scheduler,
      SharedBudgets shared,
      Consumer<Count> counted) {
    this.counted = Objects.requireNonNull(counted, "counted");
    this.name = Objects.requireNonNull(spec, "spec").name();
    this.declared = spec;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.scheduler = scheduler;
    this.shared = shared;
    this.state = State.of(spec, shared);
    this.nextSweep = new AtomicLong(clock.getAsLong() + SWEEP_INTERVAL_NANOS);
  }

  public LimitSpec spec() {
    return state.spec();
  }

  public String name() {
    return name;
  }

  /** The limit as declared, before any run-time change. */
  public LimitSpec declared() {
    return declared;
  }

  /** Uses {@code spec} from the next call on, with fresh budgets; counts are kept. */
  public void update(LimitSpec spec) {
    if (!spec.name().equals(name)) {
      throw new IllegalArgumentException("limiter " + name + " cannot take the spec of " + spec);
    }
    state = State.of(spec, shared);
  }

  /**
   * Takes one permit for {@code key} now, or refuses with the retry-after the algorithm can tell;
   * never waits. An acquired lease is to be closed when the call ends.
   */
  public RateLimitLease tryAcquire(String key, long nowNanos) {
    return tryAcquire(key, 1, nowNanos);
  }

  /** {@link #tryAcquire(String, long)} for {@code permits} (1 to {@link #permitLimit()}). */
  public RateLimitLease tryAcquire(String key, int permits, long nowNanos) {
    RateLimitLease lease = attempt(state, key, permits, nowNanos);
    if (!lease.isAcquired()) {
      refused(nowNanos);
    }
    return lease;
  }

  /** What {@link #tryAcquire} would answer now for {@code key}, taking (and counting) nothing. */
  public RateLimitLease probe(String key, long nowNanos) {
    return probe(key, 1, nowNanos);
  }

  /** {@link #probe(String, long)} for {@code permits}. */
  public RateLimitLease probe(String key, int permits, long nowNanos) {
    return state.keys().probe(key, permits, nowNanos);
  }

  /** The most permits one call may take: the burst, or the permit limit. */
  public int permitLimit() {
    return state.permitLimit();
  }

  /** Counts a call refused for another limiter's sake (a chain of limits), here at the root. */
  void countRefusal(long nowNanos) {
    refused(nowNanos);
  }

  private void refused(long nowNanos) {
    rejected.increment();
    recentRejections.add(nowNanos);
    counted.accept(Count.CALL_REFUSED);
  }

  /** The calls refused in the last minute. */
  public long rejectedLastMinute() {
    return recentRejections.lastMinute(clock.getAsLong());
  }

  /**
   * The {@code max} keys using most of their budget now (the limit less what they could take),
   * busiest first; none for a limiter whose budgets the cluster keeps.
   */
  public List<KeyUse> topKeys(int max) {
    State current = state;
    Comparator<KeyUse> lessBusy =
        Comparator.comparingInt(KeyUse::used).thenComparing(KeyUse::key, Comparator.reverseOrder());
    PriorityQueue<KeyUse> top = new PriorityQueue<>(lessBusy);
    current
        .keys()
        .forEachUse(
            clock.getAsLong(),
            (key, used) -> {
              top.add(new KeyUse(key, used, current.permitLimit()));
              if (top.size() > max) {
                top.poll();
              }
            });
    List<KeyUse> busiest = new ArrayList<>(top);
    busiest.sort(lessBusy.reversed());
    return busiest;
  }

  /**
   * How much of its budget a key uses now.
   *
   * @param key the key
   * @param used permits it could not take now
   * @param limit the most it could take
   */
  public record KeyUse(String key, int used, int limit) {}

  /**
   * Takes one permit for {@code key}: at once if it can, else, when the spec lets calls wait, as
   * soon as one comes back within its {@code maxWait} and queue; the future completes with an
   * acquired lease or a refused one, never exceptionally. Cancelling it withdraws the waiting call
   * (a permit granted meanwhile is given back).
   */
  public CompletableFuture<RateLimitLease> acquire(String key, long nowNanos) {
    return acquire(key, 1, nowNanos);
  }

  /** {@link #acquire(String, long)} for {@code permits}. */
  public CompletableFuture<RateLimitLease> acquire(String key, int permits, long nowNanos) {
    State current = state;
    RateLimitLease first = attempt(current, key, permits, nowNanos);
    if (first.isAcquired() || !current.spec().waits()) {
      if (!first.isAcquired()) {
        refused(nowNanos);
      }
      return CompletableFuture.completedFuture(first);
    }
    WaitingRateLimiter queue =
        current
            .queues()
            .computeIfAbsent(
                key,
                k ->
                    new WaitingRateLimiter(
                        current.keys().budget(k), current.waiting(), clock, scheduler));
    CompletableFuture<RateLimitLease> permit =
        queue.acquireAsync(permits, current.spec().maxWait());
    permit.whenComplete( // counted on the side: cancelling the returned future withdraws the call
        (lease, error) -> {
          if (lease != null && lease.isAcquired()) {
            granted.increment();
            waited.increment();
            counted.accept(Count.CALL_GRANTED);
            counted.accept(Count.CALL_WAITED);
            waitNanos.add(clock.getAsLong() - nowNanos);
          } else {
            refused(clock.getAsLong());
          }
        });
    return permit;
  }

  private RateLimitLease attempt(State current, String key, int permits, long nowNanos) {
    long sweep = nextSweep.get();
    if (nowNanos - sweep >= 0 && nextSweep.compareAndSet(sweep, nowNanos + SWEEP_INTERVAL_NANOS)) {
      current.keys().evictIdle(nowNanos);
      // a call that took a queue just before it went may wait in it alone: served all the same
      current.queues().values().removeIf(q -> q.queueLength() == 0);
    }
    RateLimitLease lease = current.keys().tryAcquire(key, permits, nowNanos);
    if (lease == UNTRACKED) {
      failedOpen.increment();
      counted.accept(Count.FAILED_OPEN);
    } else if (lease.isAcquired()) {
      granted.increment();
      counted.accept(Count.CALL_GRANTED);
      if (current.releaseWakes()) {
        return wakingOnRelease(current, key, lease);
      }
    }
    return lease;
  }

  /** A concurrency permit that, given back, lets the key's first waiting call in at once. */
  private static RateLimitLease wakingOnRelease(State current, String key, RateLimitLease lease) {
    return RateLimitLease.acquired(
        lease.permits(),
        () -> {
          lease.close();
          WaitingRateLimiter queue = current.queues().get(key);
          if (queue != null) {
            queue.nudge();
          }
        });
  }

  /** The permits {@code key} could take now. */
  public int availablePermits(String key, long nowNanos) {
    return state.keys().availablePermits(key, nowNanos);
  }

  /**
   * How long until {@code key} has all of its permits back, in nanoseconds: 0 when it has; for a
   * concurrency limiter, 0 too (its permits come back when calls end, not with time).
   */
  public long nanosUntilFull(String key, long nowNanos) {
    return state.keys().nanosUntilFull(key, nowNanos);
  }

  /** The limit now and a snapshot of the counts since the limiter was created. */
  public LimiterStats stats() {
    State current = state;
    int queued = 0;
    for (WaitingRateLimiter queue : current.queues().values()) {
      queued += queue.queueLength();
    }
    LimitSpec spec = current.spec();
    return new LimiterStats(
        name,
        spec.algorithm(),
        spec.permits(),
        spec.period(),
        spec.burst(),
        !spec.equals(declared),
        granted.sum(),
        rejected.sum(),
        failedOpen.sum(),
        waited.sum(),
        Duration.ofNanos(waitNanos.sum()),
        queued,
        current.keys().tracked(),
        spec.maxKeys());
  }
}
