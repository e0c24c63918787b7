package io.taskgate.core.limiter;

import java.time.Duration;
import java.util.Objects;

/** Argument checks whose messages name the field and the bad value. */
final class Checks {

  private Checks() {}

  static int atLeastOne(String field, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(field + " must be >= 1, was " + value);
    }
    return value;
  }

  static long positiveNanos(String field, Duration value) {
    Objects.requireNonNull(value, field);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(field + " must be positive, was " + value);
    }
    try {
      return value.toNanos();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          field + " must fit in a long of nanoseconds (about 292 years), was " + value, e);
    }
  }

  static void permits(int permits, int permitLimit, Object limiter) {
    if (permits < 0) {
      throw new IllegalArgumentException("permits must be >= 0, was " + permits);
    }
    if (permits > permitLimit) {
      throw new IllegalArgumentException(
          "permits must be <= the permit limit "
              + permitLimit
              + " of this "
              + limiter.getClass().getSimpleName()
              + ", was "
              + permits);
    }
  }

  /** {@code ceil(x / y)} for {@code y > 0}; {@code Math.ceilDiv} arrives only in Java 18. */
  static long ceilDiv(long x, long y) {
    return -Math.floorDiv(-x, y);
  }

  /** {@code a * b}, or {@link Long#MAX_VALUE} when it overflows (both non-negative). */
  static long saturatedMultiply(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long product = a * b;
    return high != 0 || product < 0 ? Long.MAX_VALUE : product;
  }

  /** {@code a + b}, or {@link Long#MAX_VALUE} when it overflows (both non-negative). */
  static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }
}
