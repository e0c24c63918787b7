package io.taskgate.core.limiter;

import io.taskgate.core.limit.Limit;
import java.time.Duration;

/**
 * Options of a {@link GcraLimiter}: a sustained rate of {@code permits} per {@code period} with up
 * to {@code burst} permits at once after an idle spell.
 */
public record GcraLimiterOptions(int permits, Duration period, int burst) {

  public GcraLimiterOptions {
    Checks.atLeastOne("permits", permits);
    Checks.positiveNanos("period", period);
    Checks.atLeastOne("burst", burst);
    long emission = new Limit(permits, period, burst).emissionIntervalNanos();
    if (Math.multiplyHigh(emission, burst) != 0 || emission * burst < 0) {
      throw new IllegalArgumentException(
          "burst times the emission interval (period / permits) must fit in a long of"
              + " nanoseconds, was burst "
              + burst
              + " with an emission interval of "
              + Duration.ofNanos(emission));
    }
  }

  /** {@code limit}'s rate and burst. */
  public static GcraLimiterOptions of(Limit limit) {
    return new GcraLimiterOptions(limit.permits(), limit.period(), limit.burst());
  }

  /** The limit these options describe. */
  public Limit limit() {
    return new Limit(permits, period, burst);
  }

  /** {@code T = ceil(periodNanos / permits)}: rounded up, so the rate is never exceeded. */
  public long emissionIntervalNanos() {
    return limit().emissionIntervalNanos();
  }
}
