package io.taskgate.core.task;

import io.taskgate.api.Backoff;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * How often a failed task is tried again, and how long it waits before each retry.
 *
 * <p>The wait after the n-th failed attempt (n ≥ 1) is first the base delay: {@code delay} for
 * {@link Backoff#FIXED}; {@code delay · 2^(n−1)}, capped at {@code maxDelay}, for {@link
 * Backoff#EXPONENTIAL}. Jitter then spreads it uniformly over {@code [d·(1−jitter), d·(1+jitter)]}
 * using a random number the caller draws, so the result always lies in {@code [0, maxDelay ·
 * (1+jitter)]}. Every value is checked here, once; an invalid one is refused with a message that
 * names the field and the value.
 *
 * @param maxAttempts attempts in total, the first one included; at least 1 (1: no retry)
 * @param backoff how the delay grows
 * @param delay the base delay, zero or more
 * @param maxDelay the cap of the exponential delay, at least {@code delay} and at most {@link
 *     #MAX_DELAY}
 * @param jitter the relative spread of the delay, in {@code [0, 1]}
 */
public record RetryPolicy(
    int maxAttempts, Backoff backoff, Duration delay, Duration maxDelay, double jitter) {

  /** The longest {@link #maxDelay}: 100 years keeps every delay inside a {@code long} of nanos. */
  public static final Duration MAX_DELAY = Duration.ofDays(36_500);

  private static final RetryPolicy NONE =
      new RetryPolicy(1, Backoff.FIXED, Duration.ZERO, Duration.ZERO, 0);

  /** Validates every field; see the class documentation for the rules. */
  public RetryPolicy {
    if (maxAttempts < 1) {
      throw invalid("maxAttempts", maxAttempts, "must be at least 1");
    }
    if (backoff == null) {
      throw invalid("backoff", null, "must not be null");
    }
    if (delay == null) {
      throw invalid("delay", null, "must not be null");
    }
    if (delay.isNegative()) {
      throw invalid("delay", delay, "must not be negative");
    }
    if (maxDelay == null) {
      throw invalid("maxDelay", null, "must not be null");
    }
    if (maxDelay.compareTo(delay) < 0) {
      throw invalid("maxDelay", maxDelay, "must not be less than delay " + delay);
    }
    if (maxDelay.compareTo(MAX_DELAY) > 0) {
      throw invalid("maxDelay", maxDelay, "must not exceed " + MAX_DELAY + " (100 years)");
    }
    if (!(jitter >= 0 && jitter <= 1)) {
      throw invalid("jitter", jitter, "must be between 0 and 1");
    }
  }

  /** A single attempt, never retried. */
  public static RetryPolicy none() {
    return NONE;
  }

  /**
   * The policy a handler declares with text options, e.g. from an annotation. The durations are
   * ISO-8601 ({@code PT1S}, {@code PT5M}, {@code P1D}); a text that is not one is refused with a
   * message naming the option ({@code retryDelay}, {@code maxRetryDelay}) and the text. The caller
   * prefixes the handler's name.
   */
  public static RetryPolicy of(
      int maxAttempts, Backoff backoff, String delayIso, String maxDelayIso, double jitter) {
    return new RetryPolicy(
        maxAttempts,
        backoff,
        parseDuration("retryDelay", delayIso),
        parseDuration("maxRetryDelay", maxDelayIso),
        jitter);
  }

  /** Whether the task is tried again after its {@code failedAttempt}-th attempt failed. */
  public boolean retriesAfter(int failedAttempt) {
    return failedAttempt < maxAttempts;
  }

  /**
   * The wait before the next attempt after the {@code failedAttempt}-th attempt failed.
   *
   * @param failedAttempt the number of the attempt that failed, at least 1 (any size: the
   *     exponential delay saturates at {@code maxDelay} without overflowing)
   * @param random a uniform random number in {@code [0, 1)} drawn by the caller: 0 gives the
   *     shortest delay, 0.5 the base delay, towards 1 the longest
   */
  public Duration delayAfter(int failedAttempt, double random) {
    if (failedAttempt < 1) {
      throw new IllegalArgumentException(
          "Retry delay: failedAttempt must be at least 1, was " + failedAttempt);
    }
    if (!(random >= 0 && random < 1)) {
      throw new IllegalArgumentException("Retry delay: random must be in [0, 1), was " + random);
    }
    long base = baseDelay(failedAttempt).toNanos();
    if (jitter == 0 || base == 0) {
      return Duration.ofNanos(base);
    }
    long spread = (long) Math.floor(base * jitter);
    long jittered = base + Math.round(base * jitter * (2 * random - 1));
    return Duration.ofNanos(Math.max(base - spread, Math.min(base + spread, jittered)));
  }

  private Duration baseDelay(int failedAttempt) {
    if (backoff == Backoff.FIXED || delay.isZero()) {
      return delay;
    }
    Duration d = delay;
    for (int i = 1; i < failedAttempt; i++) {
      if (d.compareTo(maxDelay.dividedBy(2)) > 0) {
        return maxDelay;
      }
      d = d.multipliedBy(2);
    }
    return d;
  }

  private static Duration parseDuration(String option, String text) {
    if (text == null) {
      throw new IllegalArgumentException(
          option + " is missing: give an ISO-8601 duration such as PT1S");
    }
    try {
      return Duration.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          option + " '" + text + "' is not an ISO-8601 duration such as PT1S", e);
    }
  }

  private static IllegalArgumentException invalid(String field, Object value, String rule) {
    return new IllegalArgumentException(
        "Invalid retry policy: " + field + " " + rule + ", was " + value);
  }
}
