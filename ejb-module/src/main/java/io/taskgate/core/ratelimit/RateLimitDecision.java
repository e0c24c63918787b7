package io.taskgate.core.ratelimit;

import java.time.Duration;
import java.time.Instant;

/**
 * The limiter's answer for one task: run now, run at a reserved slot, or not at all.
 *
 * @param outcome what to do
 * @param slotEpochNanos when the task may run, in nanoseconds since the epoch (UTC): {@code now}
 *     for {@link Outcome#RUN_NOW} and {@link Outcome#UNTRACKED}; the reserved slot for {@link
 *     Outcome#DEFERRED}; for the two rejections the slot the task would have needed
 * @param nowEpochNanos the time the decision was made at
 */
public record RateLimitDecision(Outcome outcome, long slotEpochNanos, long nowEpochNanos) {

  /** The kinds of decision. */
  public enum Outcome {
    /** Budget was available and has been spent: run now. */
    RUN_NOW,
    /** No budget now: a slot was reserved for this task, run it then (not before). */
    DEFERRED,
    /** The next free slot lies beyond the policy's reservation horizon: nothing was spent. */
    REJECTED_BEYOND_HORIZON,
    /** No budget and the policy discards on overflow: nothing was spent. */
    REJECTED_DISCARD,
    /** The limiter tracks as many keys as it may: it fails open and the task runs unthrottled. */
    UNTRACKED
  }

  /**
   * Whether the task may run now ({@link Outcome#RUN_NOW} or the fail-open {@link
   * Outcome#UNTRACKED}).
   */
  public boolean runsNow() {
    return outcome == Outcome.RUN_NOW || outcome == Outcome.UNTRACKED;
  }

  /** Whether the decision is terminal: the task will never get budget from this reservation. */
  public boolean rejected() {
    return outcome == Outcome.REJECTED_BEYOND_HORIZON || outcome == Outcome.REJECTED_DISCARD;
  }

  /** {@link #slotEpochNanos} as an instant. */
  public Instant slot() {
    return EpochNanos.toInstant(slotEpochNanos);
  }

  /** How long until the slot, zero when it is now or past. */
  public Duration retryAfter() {
    return Duration.ofNanos(Math.max(0, slotEpochNanos - nowEpochNanos));
  }
}
