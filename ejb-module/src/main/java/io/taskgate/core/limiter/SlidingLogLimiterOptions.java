package io.taskgate.core.limiter;

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

  public long windowNanos() {
    return window.toNanos();
  }
}
