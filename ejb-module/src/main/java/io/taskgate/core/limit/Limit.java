package io.taskgate.core.limit;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.SettingRanges;
import io.taskgate.core.time.HumanDuration;
import java.time.Duration;

/**
 * A limit: {@code permits} per {@code period}, up to {@code burst} of them back to back. What a
 * task type's rate ({@link RateLimitPolicy}, {@code @RateLimit}), a method's limiter
 * ({@code @RateLimited}, {@code taskgate.limiter.<name>.*}), a run-time change and the REST API and
 * pages all describe; each kind adds its own options around it (a policy's horizon and overflow, a
 * limiter's algorithm and keys).
 *
 * <p>Checked here, once, with a message naming the field and the value: permits and burst at least
 * 1, the period given and positive. The ranges of a kind are checked where the kind is made: a task
 * rate's by {@link #taskRate} ({@link SettingRanges}), a limiter's by its algorithm. Derived
 * values: the emission interval {@code T = period / permits} (rounded up to a whole nanosecond, so
 * that the rate is never exceeded) and the burst tolerance {@code τ = (burst − 1) · T}.
 *
 * @param permits how many per period, at least 1
 * @param period the period, positive
 * @param burst how many back to back from saved-up budget, at least 1 (often {@code permits})
 */
public record Limit(int permits, Duration period, int burst) {

  /** The option of {@link #permits}, as annotations, config keys and JSON fields name it. */
  public static final String PERMITS = "permits";

  /** The option of {@link #period}. */
  public static final String PERIOD = "period";

  /** The option of {@link #burst}. */
  public static final String BURST = "burst";

  /** Checks the fields; see the class documentation. */
  public Limit {
    if (permits < 1) {
      throw invalid(PERMITS, permits, "must be at least 1");
    }
    if (period == null) {
      throw new InvalidLimitException(PERIOD, null, "period must be given, such as PT1S");
    }
    if (period.isNegative() || period.isZero()) {
      throw invalid(PERIOD, period, "must be positive");
    }
    if (burst < 1) {
      throw invalid(BURST, burst, "must be at least 1");
    }
  }

  /** {@code permits} per {@code period}, with a burst of {@code permits}. */
  public static Limit of(int permits, Duration period) {
    return new Limit(permits, period, permits);
  }

  /**
   * A task type's rate: checked against the ranges of {@link SettingRanges#taskRate} first, so that
   * a value out of them is refused in those terms.
   *
   * @throws IllegalArgumentException naming the field and the value of the first one out of range
   */
  public static Limit taskRate(int permits, Duration period, int burst) {
    SettingRanges.taskRate(permits, period, burst);
    return new Limit(permits, period, burst);
  }

  /**
   * This limit, if it lies within the ranges of a task rate ({@link SettingRanges#taskRate}).
   *
   * @throws IllegalArgumentException naming the field and the value of the first one out of range
   */
  public Limit requireTaskRate() {
    SettingRanges.taskRate(permits, period, burst);
    return this;
  }

  /** The limit of a task type's {@code policy}. */
  public static Limit of(RateLimitPolicy policy) {
    return new Limit(policy.permits(), policy.period(), policy.burst());
  }

  /**
   * {@code base} with this limit's permits, period and burst, its other options kept.
   *
   * @throws IllegalArgumentException if the policy refuses this limit (see {@link
   *     RateLimitPolicy#MAX_SPAN})
   */
  public RateLimitPolicy applyTo(RateLimitPolicy base) {
    return new RateLimitPolicy(
        permits,
        period,
        burst,
        base.throttleRetries(),
        base.startEmpty(),
        base.maxReservationHorizon(),
        base.maxInSlotWait(),
        base.overflow());
  }

  /**
   * A policy of this limit with the other options at their defaults ({@link RateLimitPolicy#of}).
   *
   * @throws IllegalArgumentException if the policy refuses this limit (see {@link
   *     RateLimitPolicy#MAX_SPAN})
   */
  public RateLimitPolicy policy() {
    return RateLimitPolicy.of(permits, period).withBurst(burst);
  }

  /** This limit with another burst. */
  public Limit withBurst(int burst) {
    return new Limit(permits, period, burst);
  }

  /**
   * The period in nanoseconds.
   *
   * @throws ArithmeticException if it does not fit in a long (about 292 years)
   */
  public long periodNanos() {
    return period.toNanos();
  }

  /**
   * The steady spacing, {@code T = period / permits}, rounded up.
   *
   * @throws ArithmeticException if the period does not fit in a long of nanoseconds
   */
  public long emissionIntervalNanos() {
    return -Math.floorDiv(-periodNanos(), permits);
  }

  /**
   * How far a key's theoretical arrival time may run ahead of now: {@code (burst − 1) · T}.
   *
   * @throws ArithmeticException if it does not fit in a long of nanoseconds
   */
  public long burstToleranceNanos() {
    return Math.multiplyExact(burst - 1L, emissionIntervalNanos());
  }

  /**
   * One of {@code n} shares of this limit: 1/n of the rate (the period n times as long) and of the
   * burst (at least 1); this limit itself when {@code n} is 1 or less.
   */
  public Limit share(int n) {
    return n <= 1 ? this : new Limit(permits, period.multipliedBy(n), Math.max(1, burst / n));
  }

  /** The rate as people say it: {@code 15 per 1 min}. */
  public String rate() {
    return permits + " per " + HumanDuration.of(period);
  }

  /** The limit as people say it: {@code 15 per 1 min, burst 15}. */
  public String describe() {
    return rate() + ", burst " + burst;
  }

  private static InvalidLimitException invalid(String field, Object value, String rule) {
    return new InvalidLimitException(
        field, String.valueOf(value), field + " " + rule + ", was " + value);
  }
}
