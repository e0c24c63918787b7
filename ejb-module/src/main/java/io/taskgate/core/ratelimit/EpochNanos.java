package io.taskgate.core.ratelimit;

import java.time.Instant;

/** Conversions between {@link Instant} and nanoseconds since the epoch, the limiter's time unit. */
public final class EpochNanos {
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private EpochNanos() {}

  /**
   * Nanoseconds since 1970-01-01T00:00:00Z.
   *
   * @throws ArithmeticException outside the years 1677 to 2262, which a long cannot hold
   */
  public static long of(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), NANOS_PER_SECOND), instant.getNano());
  }

  /** The instant {@code epochNanos} nanoseconds after the epoch. */
  public static Instant toInstant(long epochNanos) {
    return Instant.ofEpochSecond(
        Math.floorDiv(epochNanos, NANOS_PER_SECOND), Math.floorMod(epochNanos, NANOS_PER_SECOND));
  }
}
