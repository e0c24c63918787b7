package io.taskgate.engine.limiter;

import io.taskgate.api.LimiterStats;
import io.taskgate.api.NamedRateLimiter;
import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.core.time.Ticker;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** A {@link NamedLimiter} as application code injects it ({@code @Limiter("name")}). */
final class LimiterHandle implements NamedRateLimiter {
  private final NamedLimiter limiter;
  private final Ticker ticker;

  LimiterHandle(NamedLimiter limiter, Ticker ticker) {
    this.limiter = limiter;
    this.ticker = ticker;
  }

  @Override
  public String name() {
    return limiter.name();
  }

  @Override
  public Permit tryAcquire(String key) {
    return new LeasePermit(limiter.tryAcquire(key, ticker.nanos()));
  }

  @Override
  public CompletionStage<Permit> acquire(String key) {
    return limiter.acquire(key, ticker.nanos()).thenApply(LeasePermit::new);
  }

  @Override
  public Permit tryAcquire(String key, int permits) {
    return new LeasePermit(limiter.tryAcquire(key, checked(permits), ticker.nanos()));
  }

  @Override
  public CompletionStage<Permit> acquire(String key, int permits) {
    return limiter.acquire(key, checked(permits), ticker.nanos()).thenApply(LeasePermit::new);
  }

  private int checked(int permits) {
    if (permits < 1 || permits > limiter.permitLimit()) {
      throw new IllegalArgumentException(
          "limiter "
              + limiter.name()
              + " takes between 1 and "
              + limiter.permitLimit()
              + " permits in one call (more could never be granted), not "
              + permits);
    }
    return permits;
  }

  @Override
  public int availablePermits(String key) {
    return limiter.availablePermits(key, ticker.nanos());
  }

  @Override
  public LimiterStats stats() {
    return limiter.stats();
  }

  @Override
  public String toString() {
    return "limiter " + limiter.name();
  }

  /** A lease as a permit. */
  private record LeasePermit(RateLimitLease lease) implements Permit {
    @Override
    public boolean granted() {
      return lease.isAcquired();
    }

    @Override
    public Optional<Duration> retryAfter() {
      return lease.retryAfter();
    }

    @Override
    public Optional<String> reason() {
      return lease.reason();
    }

    @Override
    public void close() {
      lease.close();
    }
  }
}
