package io.taskgate.core.limiter;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * At most {@code permitLimit} permits held at once; a permit is held from the grant until its lease
 * is closed. Time plays no part, and a refusal carries no retry-after because only a release can
 * free a permit.
 */
public final class ConcurrencyLimiter implements RateLimiter {

  private final int permitLimit;
  private final AtomicInteger inUse = new AtomicInteger();

  public ConcurrencyLimiter(ConcurrencyLimiterOptions options) {
    this.permitLimit = options.permitLimit();
  }

  @Override
  public RateLimitLease tryAcquire(int permits, long nowNanos) {
    Checks.permits(permits, permitLimit, this);
    if (permits == 0) {
      return probe(0, nowNanos);
    }
    while (true) {
      int current = inUse.get();
      if (current + permits > permitLimit) {
        return refusal(permits, current);
      }
      if (inUse.compareAndSet(current, current + permits)) {
        return RateLimitLease.acquired(permits, () -> inUse.addAndGet(-permits));
      }
    }
  }

  @Override
  public RateLimitLease probe(int permits, long nowNanos) {
    Checks.permits(permits, permitLimit, this);
    int current = inUse.get();
    return current + Math.max(1, permits) <= permitLimit
        ? RateLimitLease.acquired(permits)
        : refusal(permits, current);
  }

  private RateLimitLease refusal(int permits, int current) {
    return RateLimitLease.rejected(
        permits,
        "concurrency limit reached: "
            + current
            + " of "
            + permitLimit
            + " permits in use, "
            + Math.max(1, permits)
            + " requested");
  }

  @Override
  public int availablePermits(long nowNanos) {
    return Math.max(0, permitLimit - inUse.get());
  }

  @Override
  public int permitLimit() {
    return permitLimit;
  }

  @Override
  public boolean isIdle(long nowNanos) {
    return inUse.get() == 0;
  }
}
