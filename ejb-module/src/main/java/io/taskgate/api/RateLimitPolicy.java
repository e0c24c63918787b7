package io.taskgate.api;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * A per-key rate: at most {@code permits} executions per {@code period} on average, with up to
 * {@code burst} of them back to back after a quiet stretch.
 *
 * <p>Build one with {@link #of(int, Duration)} and the {@code with…} methods. Every value is
 * checked here, once; an invalid one is refused with a message that names the field and the value.
 * Derived values: the emission interval {@code T = period / permits} (rounded up to a whole
 * nanosecond, so the limiter never runs faster than declared) and the burst tolerance {@code τ =
 * (burst − 1) · T}.
 *
 * @param permits executions allowed per period, at least 1
 * @param period the length of the period, positive and at most {@link #MAX_SPAN}
 * @param burst how many executions may run back to back from saved-up budget, at least 1 (default:
 *     {@code permits})
 * @param throttleRetries whether retry attempts acquire budget too (default true)
 * @param startEmpty whether a key seen for the first time starts with no saved-up budget (default
 *     false: it starts with the full burst)
 * @param maxReservationHorizon how far ahead a slot may be reserved; a farther slot is a terminal
 *     rejection (default 1 hour, zero or more)
 * @param maxInSlotWait retained for compatibility and ignored: the gate never waits inline (default
 *     1 second, zero or more)
 * @param overflow what happens when a key has no budget (default {@link
 *     OverflowBehavior#WAIT_FOR_CAPACITY})
 */
public record RateLimitPolicy(
    int permits,
    Duration period,
    int burst,
    boolean throttleRetries,
    boolean startEmpty,
    Duration maxReservationHorizon,
    Duration maxInSlotWait,
    OverflowBehavior overflow) {

  /**
   * The longest period, horizon and burst span (burst × emission interval) a policy may have: 100
   * years keeps every slot the limiter computes inside a {@code long} of epoch nanoseconds.
   */
  public static final Duration MAX_SPAN = Duration.ofDays(36_500);

  /** The default {@link #maxReservationHorizon}. */
  public static final Duration DEFAULT_HORIZON = Duration.ofHours(1);

  /** The default {@link #maxInSlotWait}. */
  public static final Duration DEFAULT_IN_SLOT_WAIT = Duration.ofSeconds(1);

  private static final long MAX_SPAN_NANOS = MAX_SPAN.toNanos();

  /** Validates every field; see the class documentation for the rules. */
  public RateLimitPolicy {
    if (permits < 1) {
      throw invalid("permits", permits, "must be at least 1");
    }
    requireSpan("period", period, false);
    if (burst < 1) {
      throw invalid("burst", burst, "must be at least 1");
    }
    long interval = ceilDiv(period.toNanos(), permits);
    if (interval > MAX_SPAN_NANOS / burst) {
      throw invalid(
          "burst",
          burst,
          "times the emission interval (period / permits = "
              + Duration.ofNanos(interval)
              + ") must not exceed "
              + MAX_SPAN);
    }
    requireSpan("maxReservationHorizon", maxReservationHorizon, true);
    requireSpan("maxInSlotWait", maxInSlotWait, true);
    if (overflow == null) {
      throw invalid("overflow", null, "must not be null");
    }
  }

  /**
   * {@code permits} per {@code period} with the defaults: burst = permits, retries throttled, new
   * keys start full, 1 hour horizon, wait for capacity.
   */
  public static RateLimitPolicy of(int permits, Duration period) {
    return new RateLimitPolicy(
        permits,
        period,
        Math.max(permits, 1),
        true,
        false,
        DEFAULT_HORIZON,
        DEFAULT_IN_SLOT_WAIT,
        OverflowBehavior.WAIT_FOR_CAPACITY);
  }

  /** This policy with another burst. */
  public RateLimitPolicy withBurst(int burst) {
    return copy(draft -> draft.burst = burst);
  }

  /** This policy with retries throttled or not. */
  public RateLimitPolicy withThrottleRetries(boolean throttleRetries) {
    return copy(draft -> draft.throttleRetries = throttleRetries);
  }

  /** This policy with new keys starting empty or full. */
  public RateLimitPolicy withStartEmpty(boolean startEmpty) {
    return copy(draft -> draft.startEmpty = startEmpty);
  }

  /** This policy with another reservation horizon. */
  public RateLimitPolicy withMaxReservationHorizon(Duration maxReservationHorizon) {
    return copy(draft -> draft.maxReservationHorizon = maxReservationHorizon);
  }

  /** This policy with another (ignored) in-slot wait. */
  public RateLimitPolicy withMaxInSlotWait(Duration maxInSlotWait) {
    return copy(draft -> draft.maxInSlotWait = maxInSlotWait);
  }

  /** This policy with another overflow behaviour. */
  public RateLimitPolicy withOverflow(OverflowBehavior overflow) {
    return copy(draft -> draft.overflow = overflow);
  }

  /** The steady spacing between executions, {@code T = period / permits}, rounded up. */
  public long emissionIntervalNanos() {
    return ceilDiv(period.toNanos(), permits);
  }

  /** How far a key's theoretical arrival time may run ahead of now: {@code (burst − 1) · T}. */
  public long burstToleranceNanos() {
    return (burst - 1) * emissionIntervalNanos();
  }

  /** {@link #maxReservationHorizon} in nanoseconds. */
  public long maxReservationHorizonNanos() {
    return maxReservationHorizon.toNanos();
  }

  private RateLimitPolicy copy(Consumer<Draft> change) {
    Draft draft = new Draft(this);
    change.accept(draft);
    return draft.policy();
  }

  /**
   * A policy's fields as the {@code with…} methods copy them, open to change before {@link
   * #policy()} checks them in the canonical constructor.
   */
  private static final class Draft {
    private final int permits;
    private final Duration period;
    private int burst;
    private boolean throttleRetries;
    private boolean startEmpty;
    private Duration maxReservationHorizon;
    private Duration maxInSlotWait;
    private OverflowBehavior overflow;

    Draft(RateLimitPolicy policy) {
      permits = policy.permits;
      period = policy.period;
      burst = policy.burst;
      throttleRetries = policy.throttleRetries;
      startEmpty = policy.startEmpty;
      maxReservationHorizon = policy.maxReservationHorizon;
      maxInSlotWait = policy.maxInSlotWait;
      overflow = policy.overflow;
    }

    RateLimitPolicy policy() {
      return new RateLimitPolicy(
          permits,
          period,
          burst,
          throttleRetries,
          startEmpty,
          maxReservationHorizon,
          maxInSlotWait,
          overflow);
    }
  }

  private static void requireSpan(String field, Duration value, boolean zeroAllowed) {
    if (value == null) {
      throw invalid(field, null, "must not be null");
    }
    if (value.isNegative() || (!zeroAllowed && value.isZero())) {
      throw invalid(field, value, zeroAllowed ? "must not be negative" : "must be positive");
    }
    if (value.compareTo(MAX_SPAN) > 0) {
      throw invalid(field, value, "must not exceed " + MAX_SPAN + " (100 years)");
    }
  }

  private static long ceilDiv(long dividend, long divisor) {
    return -Math.floorDiv(-dividend, divisor);
  }

  private static IllegalArgumentException invalid(String field, Object value, String rule) {
    return new IllegalArgumentException(
        "Invalid rate-limit policy: " + field + " " + rule + ", was " + value);
  }
}
