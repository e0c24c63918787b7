package io.taskgate.engine.limiter;

import io.taskgate.core.limiter.PartitionedLimiter;
import io.taskgate.core.limiter.RateLimitLease;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One named limiter of {@code @RateLimited} methods: a budget per key (memory bounded by the spec's
 * {@code maxKeys}, idle keys dropped), counting what it granted, refused and let through untracked.
 * Thread safe and lock free on the call path; times are readings of one monotonic clock.
 *
 * <p>A new key when {@code maxKeys} keys are busy is let through untracked (fail open): a full
 * table must not refuse callers it never saw.
 */
public final class NamedLimiter {

  /** Idle keys are dropped at most this often (and whenever the key table is full). */
  static final long SWEEP_INTERVAL_NANOS = 10_000_000_000L;

  /** The key of an unkeyed limiter's one budget. */
  public static final String NO_KEY = "";

  private final LimitSpec spec;
  private final PartitionedLimiter<String> keys;
  private final RateLimitLease untracked;
  private final int permitLimit;
  private final LongAdder granted = new LongAdder();
  private final LongAdder rejected = new LongAdder();
  private final LongAdder failedOpen = new LongAdder();
  private final AtomicLong nextSweep;

  /**
   * @param spec what the limiter is
   * @param nowNanos the clock's reading now
   */
  public NamedLimiter(LimitSpec spec, long nowNanos) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.keys = new PartitionedLimiter<>(k -> spec.newLimiter(), spec.maxKeys());
    this.untracked = RateLimitLease.acquired(1);
    this.permitLimit = spec.newLimiter().permitLimit();
    this.nextSweep = new AtomicLong(nowNanos + SWEEP_INTERVAL_NANOS);
  }

  public LimitSpec spec() {
    return spec;
  }

  public String name() {
    return spec.name();
  }

  /**
   * Takes one permit for {@code key} now, or refuses with the retry-after the algorithm can tell;
   * an acquired lease is to be closed when the call ends.
   */
  public RateLimitLease tryAcquire(String key, long nowNanos) {
    long sweep = nextSweep.get();
    if (nowNanos - sweep >= 0 && nextSweep.compareAndSet(sweep, nowNanos + SWEEP_INTERVAL_NANOS)) {
      keys.evictIdle(nowNanos);
    }
    RateLimitLease lease = keys.tryAcquire(key, 1, nowNanos, untracked);
    if (lease == untracked) {
      failedOpen.increment();
    } else if (lease.isAcquired()) {
      granted.increment();
    } else {
      rejected.increment();
    }
    return lease;
  }

  /** What {@link #tryAcquire} would answer now, taking nothing. */
  public RateLimitLease probe(String key, long nowNanos) {
    return keys.probe(key, 1, nowNanos);
  }

  /** The permits {@code key} could take now. */
  public int availablePermits(String key, long nowNanos) {
    return keys.availablePermits(key, nowNanos);
  }

  /**
   * How long until {@code key} has all of its permits back, in nanoseconds: 0 when it has; for a
   * concurrency limiter, 0 too (its permits come back when calls end, not with time).
   */
  public long nanosUntilFull(String key, long nowNanos) {
    RateLimitLease full = keys.probe(key, permitLimit, nowNanos);
    return full.isAcquired() ? 0 : full.retryAfterNanos().orElse(0);
  }

  /** A snapshot of the counts since the limiter was created. */
  public Stats stats() {
    return new Stats(
        granted.sum(), rejected.sum(), failedOpen.sum(), keys.partitionCount(), spec.maxKeys());
  }

  /**
   * The counts of a limiter.
   *
   * @param granted calls let through
   * @param rejected calls refused
   * @param failedOpen calls let through untracked because the key table was full
   * @param keys keys tracked now
   * @param maxKeys the most keys tracked at once
   */
  public record Stats(long granted, long rejected, long failedOpen, int keys, int maxKeys) {}
}
