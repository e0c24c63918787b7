package io.taskgate.core.limiter;

import io.taskgate.core.limit.Limit;
import java.time.Duration;

/**
 * Options of a {@link SlidingLogLimiter}: never more than {@code permitLimit} permits in any {@code
 * window}.
 */
public record SlidingLogLimiterOptions(int permitLimit, Duration window) {

  public SlidingLogLimiterOptions {
    Checks.atLeastOne("permitLimit", permitLimit);
    Checks.positiveNanos("window", window);
  }

  /** {@code limit}'s permits in any window of its period (its burst is not used). */
  public static SlidingLogLimiterOptions of(Limit limit) {
    return new SlidingLogLimiterOptions(limit.permits(), limit.period());
  }

  public long windowNanos() {
    return window.toNanos();
  }
}
