package io.taskgate.core.limiter;

import io.taskgate.core.limit.Limit;
import java.time.Duration;

/** Options of a {@link FixedWindowLimiter}: {@code permitLimit} permits per {@code window}. */
public record FixedWindowLimiterOptions(int permitLimit, Duration window) {

  public FixedWindowLimiterOptions {
    Checks.atLeastOne("permitLimit", permitLimit);
    Checks.positiveNanos("window", window);
  }

  /** {@code limit}'s permits per window of its period (its burst is not used). */
  public static FixedWindowLimiterOptions of(Limit limit) {
    return new FixedWindowLimiterOptions(limit.permits(), limit.period());
  }

  public long windowNanos() {
    return window.toNanos();
  }
}
