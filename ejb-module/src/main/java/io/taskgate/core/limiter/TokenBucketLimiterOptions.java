package io.taskgate.core.limiter;

import io.taskgate.core.limit.Limit;
import java.time.Duration;

/**
 * Options of a {@link TokenBucketLimiter}: a bucket of {@code capacity} tokens refilled at {@code
 * tokensPerPeriod} per {@code period}.
 *
 * <p>The exact integer refill needs {@code periodNanos * (tokensPerPeriod + 1)} to fit in a long
 * (for example one hour allows up to about 2.5 million tokens per period).
 */
public record TokenBucketLimiterOptions(int capacity, int tokensPerPeriod, Duration period) {

  public TokenBucketLimiterOptions {
    Checks.atLeastOne("capacity", capacity);
    Checks.atLeastOne("tokensPerPeriod", tokensPerPeriod);
    long periodNanos = Checks.positiveNanos("period", period);
    if (Math.multiplyHigh(periodNanos, tokensPerPeriod + 1L) != 0
        || periodNanos * (tokensPerPeriod + 1L) < 0) {
      throw new IllegalArgumentException(
          "period in nanoseconds times (tokensPerPeriod + 1) must fit in a long; use a shorter"
              + " period with proportionally fewer tokens, was period "
              + period
              + " with tokensPerPeriod "
              + tokensPerPeriod);
    }
  }

  /** A bucket of {@code limit}'s burst, refilled at its permits per period. */
  public static TokenBucketLimiterOptions of(Limit limit) {
    return new TokenBucketLimiterOptions(limit.burst(), limit.permits(), limit.period());
  }

  public long periodNanos() {
    return period.toNanos();
  }
}
