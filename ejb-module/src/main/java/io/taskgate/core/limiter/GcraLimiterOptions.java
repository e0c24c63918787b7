package io.taskgate.core.limiter;

import java.time.Duration;

/**
 * Options of a {@link GcraLimiter}: a sustained rate of {@code permits} per {@code period} with up
 * to {@code burst} permits at once after an idle spell.
 */
public record GcraLimiterOptions(int permits, Duration period, int burst) {

  public GcraLimiterOptions {
    Checks.atLeastOne("permits", permits);
    long periodNanos = Checks.positiveNanos("period", period);
    Checks.atLeastOne("burst", burst);
    long emission = Checks.ceilDiv(periodNanos, permits);
    if (Math.multiplyHigh(emission, burst) != 0 || emission * burst < 0) {
      throw new IllegalArgumentException(
          "burst times the emission interval (period / permits) must fit in a long of"
              + " nanoseconds, was burst "
              + burst
              + " with an emission interval of "
              + Duration.ofNanos(emission));
    }
  }

  /** {@code T = ceil(periodNanos / permits)}: rounded up, so the rate is never exceeded. */
  public long emissionIntervalNanos() {
    return Checks.ceilDiv(period.toNanos(), permits);
  }
}
