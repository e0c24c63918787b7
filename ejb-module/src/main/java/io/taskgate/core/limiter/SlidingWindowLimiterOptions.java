package io.taskgate.core.limiter;

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

  public long segmentNanos() {
    return window.toNanos() / segmentsPerWindow;
  }
}
