package io.taskgate.core.limiter;

import java.time.Duration;

/** Options of a {@link FixedWindowLimiter}: {@code permitLimit} permits per {@code window}. */
public record FixedWindowLimiterOptions(int permitLimit, Duration window) {

  public FixedWindowLimiterOptions {
    Checks.atLeastOne("permitLimit", permitLimit);
    Checks.positiveNanos("window", window);
  }

  public long windowNanos() {
    return window.toNanos();
  }
}
