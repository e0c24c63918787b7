package io.taskgate.engine.limiter;

import io.taskgate.api.QueueOrder;
import java.time.Duration;
import java.util.Objects;

/**
 * Options of a {@link WaitingRateLimiter}.
 *
 * @param queueLimit the most permits that may wait at once (0: nobody waits)
 * @param queueOrder which waiter is served first
 * @param pollInterval how soon to retry when a refusal carries no retry-after (a concurrency
 *     limiter whose permits are released outside this waiting limiter)
 */
public record WaitingRateLimiterOptions(
    int queueLimit, QueueOrder queueOrder, Duration pollInterval) {

  public WaitingRateLimiterOptions {
    if (queueLimit < 0) {
      throw new IllegalArgumentException("queueLimit must be >= 0, was " + queueLimit);
    }
    Objects.requireNonNull(queueOrder, "queueOrder");
    Objects.requireNonNull(pollInterval, "pollInterval");
    if (pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException("pollInterval must be positive, was " + pollInterval);
    }
  }

  public long pollIntervalNanos() {
    return pollInterval.toNanos();
  }
}
