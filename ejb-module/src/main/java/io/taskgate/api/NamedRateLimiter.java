package io.taskgate.api;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A named limiter asked directly (see {@link Limiter}): a budget per key, as its {@link
 * RateLimited} options say. Use the key {@code ""} for a limiter that is not keyed.
 *
 * <pre>{@code
 * try (NamedRateLimiter.Permit permit = partner.tryAcquire(tenant)) {
 *   if (permit.granted()) callPartner();
 *   else tellTheCaller(permit.retryAfter());
 * }
 * }</pre>
 */
public interface NamedRateLimiter {

  /** The limiter's name. */
  String name();

  /** Takes a permit for {@code key} now if one is free; never waits. */
  Permit tryAcquire(String key);

  /**
   * Takes a permit for {@code key}, waiting as the limiter's {@code maxWait} and queue allow
   * without holding a thread; completes with a refused permit when it cannot, never exceptionally.
   */
  CompletionStage<Permit> acquire(String key);

  /**
   * Takes {@code permits} for {@code key} now if all of them are free, otherwise none; never waits.
   * {@code permits} is between 1 and the most one call may take (the burst or permit limit):
   * another value is refused with {@link IllegalArgumentException}, naming the limiter and the
   * value. The default takes one permit and refuses any other count.
   */
  default Permit tryAcquire(String key, int permits) {
    if (permits != 1) {
      throw new IllegalArgumentException(
          "limiter " + name() + " takes one permit at a time, not " + permits);
    }
    return tryAcquire(key);
  }

  /**
   * {@link #acquire(String)} for {@code permits}, all of them or none; {@code permits} as for
   * {@link #tryAcquire(String, int)}.
   */
  default CompletionStage<Permit> acquire(String key, int permits) {
    if (permits != 1) {
      throw new IllegalArgumentException(
          "limiter " + name() + " takes one permit at a time, not " + permits);
    }
    return acquire(key);
  }

  /** The permits {@code key} could take now. */
  int availablePermits(String key);

  /** What the limiter has done since it was created, and its limit now. */
  LimiterStats stats();

  /**
   * The answer of a limiter. Close a granted permit when the work is done: a concurrency limiter
   * then lets the next call in (rate limiters' permits come back with time, closing does nothing).
   */
  interface Permit extends AutoCloseable {
    /** Whether the permit was granted. */
    boolean granted();

    /** For a refused permit, how long until the same request would be granted, if known. */
    Optional<Duration> retryAfter();

    /** For a refused permit, why; empty when granted. */
    Optional<String> reason();

    /** Gives a granted permit back; idempotent. */
    @Override
    void close();
  }
}
