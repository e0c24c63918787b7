package io.taskgate.core.limiter;

import io.taskgate.core.limit.Limit;
import java.time.Duration;

/**
 * Options of a {@link SlidingWindowLimiter}: {@code permitLimit} permits per {@code window}, the
 * window divided into {@code segmentsPerWindow} equal segments of whole nanoseconds.
 */
public record SlidingWindowLimiterOptions(int permitLimit, Duration window, int segmentsPerWindow) {

  public SlidingWindowLimiterOptions {
    Checks.atLeastOne("permitLimit", permitLimit);
    long windowNanos = Checks.positiveNanos("window", window);
    Checks.atLeastOne("segmentsPerWindow", segmentsPerWindow);
    if (windowNanos % segmentsPerWindow != 0) {
      throw new IllegalArgumentException(
          "window must divide into segmentsPerWindow equal segments of whole nanoseconds, was"
              + " window "
              + window
              + " with segmentsPerWindow "
              + segmentsPerWindow);
    }
  }

  /**
   * {@code limit}'s permits per window of its period, in {@code segmentsPerWindow} segments (its
   * burst is not used).
   */
  public static SlidingWindowLimiterOptions of(Limit limit, int segmentsPerWindow) {
    return new SlidingWindowLimiterOptions(limit.permits(), limit.period(), segmentsPerWindow);
  }

  public long segmentNanos() {
    return window.toNanos() / segmentsPerWindow;
  }
}
