package io.taskgate.core.limiter;

import io.taskgate.core.limit.Limit;

/** Options of a {@link ConcurrencyLimiter}: at most {@code permitLimit} permits held at once. */
public record ConcurrencyLimiterOptions(int permitLimit) {

  public ConcurrencyLimiterOptions {
    Checks.atLeastOne("permitLimit", permitLimit);
  }

  /** {@code limit}'s permits at once (its period and burst are not used). */
  public static ConcurrencyLimiterOptions of(Limit limit) {
    return new ConcurrencyLimiterOptions(limit.permits());
  }
}
