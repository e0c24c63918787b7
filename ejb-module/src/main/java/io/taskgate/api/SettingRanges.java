package io.taskgate.api;

import java.time.Duration;

/**
 * The ranges of the throttling settings of task types, in one place: semaphores and windows ({@link
 * WindowOptions}), task rate limits ({@link RateLimit}, {@link Handler#rateLimitPolicy()}, {@link
 * ThrottlingManager#setRateLimit}) and the rate-limit keys an admin names. The REST API, the admin
 * pages and {@link ThrottlingManager} refuse a value outside them, naming the field and the value.
 * Each bound keeps the arithmetic on it inside a {@code long} and stands for something a deployment
 * can mean: beyond it a setting would be unlimited in all but name.
 *
 * <p>Limiters of methods ({@link RateLimited}) are not task settings: their own checks apply.
 */
public final class SettingRanges {
  /**
   * The most a count may be: a semaphore's {@code maxCount}; a window's {@code limit}, {@code
   * capacity}, {@code minLimit} and {@code maxLimit}; a task rate limit's {@code permits} and
   * {@code burst}.
   */
  public static final int MAX_COUNT = 1_000_000;

  /** The shortest emission interval ({@code period / permits}) of a task rate limit: 1 ms. */
  public static final Duration MIN_EMISSION_INTERVAL = Duration.ofMillis(1);

  /** The longest period of a task rate limit, and the longest interval of a window: 366 days. */
  public static final Duration MAX_PERIOD = Duration.ofDays(366);

  private SettingRanges() {}

  /**
   * {@code value} if it is between 1 and {@link #MAX_COUNT}.
   *
   * @throws IllegalArgumentException naming {@code field} and the value otherwise
   */
  public static int count(String field, int value) {
    if (value < 1 || value > MAX_COUNT) {
      throw new IllegalArgumentException(
          field + " must be between 1 and " + MAX_COUNT + ", was " + value);
    }
    return value;
  }

  /**
   * {@code value} if it is positive and at most {@link #MAX_PERIOD} (so that it fits in a {@code
   * long} of nanoseconds, whatever the client sent).
   *
   * @throws IllegalArgumentException naming {@code field} and the value otherwise
   */
  public static Duration period(String field, Duration value) {
    if (value == null) {
      throw new IllegalArgumentException(field + " must be given, such as PT1M");
    }
    if (value.isNegative() || value.isZero() || value.compareTo(MAX_PERIOD) > 0) {
      throw new IllegalArgumentException(
          field + " must be positive and at most " + MAX_PERIOD + " (366 days), was " + value);
    }
    return value;
  }

  /**
   * Checks a task rate limit: {@code permits} and {@code burst} within {@link #count}, {@code
   * period} within {@link #period}, and {@code period / permits} at least {@link
   * #MIN_EMISSION_INTERVAL}.
   *
   * @throws IllegalArgumentException naming the field and the value of the first one out of range
   */
  public static void taskRate(int permits, Duration period, int burst) {
    count("permits", permits);
    period("period", period);
    count("burst", burst);
    if (period.dividedBy(permits).compareTo(MIN_EMISSION_INTERVAL) < 0) {
      throw new IllegalArgumentException(
          "permits must leave at least "
              + MIN_EMISSION_INTERVAL
              + " between two starts (period / permits), was "
              + permits
              + " per "
              + period
              + ": at most "
              + period.dividedBy(MIN_EMISSION_INTERVAL)
              + " per "
              + period);
    }
  }

  /**
   * {@code key} if it can name a rate-limit key: not empty, no NUL character (a database cannot
   * store it).
   *
   * @throws IllegalArgumentException naming {@code field} otherwise
   */
  public static String key(String field, String key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException(field + " must not be empty, was \"\"");
    }
    if (key.indexOf('\u0000') >= 0) {
      throw new IllegalArgumentException(
          field + " must not contain the NUL character (\\u0000), was " + printable(key));
    }
    return key;
  }

  /** {@code text} with its control characters written as {@code \\uXXXX}, cut at 100 characters. */
  static String printable(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < Math.min(text.length(), 100); i++) {
      char c = text.charAt(i);
      out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return out.append(text.length() > 100 ? "…\"" : "\"").toString();
  }
}
