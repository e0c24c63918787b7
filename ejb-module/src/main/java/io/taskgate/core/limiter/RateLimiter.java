package io.taskgate.core.limiter;

/**
 * A limiter that answers at once whether permits may be taken now; it never waits and never reads a
 * clock.
 *
 * <p>Contract shared by every implementation:
 *
 * <ul>
 *   <li>{@code nowNanos} is a nanosecond reading of one caller-chosen timeline (for example {@code
 *       System.nanoTime()} or epoch nanoseconds); all calls on one limiter must use the same
 *       timeline. A reading older than one the limiter has already seen is treated as that newer
 *       reading: time never runs backwards inside a limiter.
 *   <li>{@code permits} is between 0 and {@link #permitLimit()}; a negative value or one above the
 *       limit is a programming error and throws {@link IllegalArgumentException} naming the value
 *       and the limit. {@code permits == 0} takes nothing and asks "would one permit be granted
 *       now?".
 *   <li>Methods are thread safe and lock free; a refusal never changes the limiter's state.
 * </ul>
 */
public interface RateLimiter {

  /**
   * Takes {@code permits} now if all of them are available, otherwise takes nothing.
   *
   * @return an acquired lease, to be closed when the work is done (this gives permits back to
   *     concurrency limiters and does nothing for rate limiters), or a refused lease carrying the
   *     retry-after when the limiter can tell it
   * @throws IllegalArgumentException if {@code permits} is negative or above {@link #permitLimit()}
   */
  RateLimitLease tryAcquire(int permits, long nowNanos);

  /** Same as {@code tryAcquire(1, nowNanos)}. */
  default RateLimitLease tryAcquire(long nowNanos) {
    return tryAcquire(1, nowNanos);
  }

  /**
   * Answers what {@link #tryAcquire(int, long)} would answer now, without taking anything: the
   * returned lease reports the same decision and retry-after, and closing it does nothing. {@code
   * permits == 0} is answered as for one permit.
   *
   * @throws IllegalArgumentException if {@code permits} is negative or above {@link #permitLimit()}
   */
  RateLimitLease probe(int permits, long nowNanos);

  /** The number of permits a request could take now; an estimate under concurrent use. */
  int availablePermits(long nowNanos);

  /** The most permits a single request may ask for. */
  int permitLimit();

  /**
   * Whether the limiter is back in the state of a newly created one at {@code nowNanos}: all
   * permits available and no history that could still refuse a request. An idle limiter may be
   * discarded and recreated without changing any decision.
   */
  boolean isIdle(long nowNanos);
}
