package io.taskgate.core.ratelimit;

import io.taskgate.api.RateLimitRejectedException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The limiter's answer for one task: run now, run at a reserved slot, or not at all.
 *
 * <p>The two "run now" answers carry no slot, since the caller knows its own now; each is one
 * shared instance, so the hot path of a limiter allocates nothing.
 *
 * @param outcome what to do
 * @param slotEpochNanos for {@link Outcome#DEFERRED}, the reserved slot in nanoseconds since the
 *     epoch (UTC); for the two rejections, the slot the task would have needed; {@link #NO_SLOT}
 *     for {@link Outcome#RUN_NOW} and {@link Outcome#UNTRACKED}
 * @param retryAfterNanos how long from the decision until the slot, zero when there is no slot
 */
public record RateLimitDecision(Outcome outcome, long slotEpochNanos, long retryAfterNanos) {

  /** The {@link #slotEpochNanos} of a decision that runs now. */
  public static final long NO_SLOT = Long.MIN_VALUE;

  private static final RateLimitDecision RUN_NOW =
      new RateLimitDecision(Outcome.RUN_NOW, NO_SLOT, 0);
  private static final RateLimitDecision UNTRACKED =
      new RateLimitDecision(Outcome.UNTRACKED, NO_SLOT, 0);

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
    UNTRACKED;

    /**
     * Why a task so decided is rejected.
     *
     * @throws IllegalArgumentException if this is not a rejection
     */
    public RateLimitRejectedException.Reason rejectionReason() {
      return switch (this) {
        case REJECTED_BEYOND_HORIZON -> RateLimitRejectedException.Reason.BEYOND_HORIZON;
        case REJECTED_DISCARD -> RateLimitRejectedException.Reason.DISCARDED;
        default -> throw new IllegalArgumentException(this + " is not a rejection");
      };
    }
  }

  /** Checks that run-now answers have no slot and the others a slot not in the past. */
  public RateLimitDecision {
    if (outcome == null) {
      throw new IllegalArgumentException("outcome must not be null");
    }
    boolean now = outcome == Outcome.RUN_NOW || outcome == Outcome.UNTRACKED;
    if (now != (slotEpochNanos == NO_SLOT)
        || (now && retryAfterNanos != 0)
        || retryAfterNanos < 0) {
      throw new IllegalArgumentException(
          outcome
              + " decision with slot "
              + slotEpochNanos
              + " and retry-after "
              + retryAfterNanos
              + ": a run-now decision has no slot, the others a slot not in the past");
    }
  }

  /** Budget spent: run now. */
  public static RateLimitDecision runNow() {
    return RUN_NOW;
  }

  /** Key cap reached: run now, unthrottled (fail open). */
  public static RateLimitDecision untracked() {
    return UNTRACKED;
  }

  /** Reserved {@code slot}, which lies after {@code now}. */
  public static RateLimitDecision deferred(long slotEpochNanos, long nowEpochNanos) {
    return new RateLimitDecision(Outcome.DEFERRED, slotEpochNanos, slotEpochNanos - nowEpochNanos);
  }

  /** Rejected: the task would have needed {@code slot}, and that is beyond the horizon. */
  public static RateLimitDecision beyondHorizon(long slotEpochNanos, long nowEpochNanos) {
    return new RateLimitDecision(
        Outcome.REJECTED_BEYOND_HORIZON, slotEpochNanos, slotEpochNanos - nowEpochNanos);
  }

  /** Rejected: no budget before {@code slot}, and the policy discards. */
  public static RateLimitDecision discarded(long slotEpochNanos, long nowEpochNanos) {
    return new RateLimitDecision(
        Outcome.REJECTED_DISCARD, slotEpochNanos, slotEpochNanos - nowEpochNanos);
  }

  /**
   * Whether the task may run now ({@link Outcome#RUN_NOW} or the fail-open {@link
   * Outcome#UNTRACKED}).
   */
  public boolean runsNow() {
    return slotEpochNanos == NO_SLOT;
  }

  /** Whether the decision is terminal: the task will never get budget from this reservation. */
  public boolean rejected() {
    return outcome == Outcome.REJECTED_BEYOND_HORIZON || outcome == Outcome.REJECTED_DISCARD;
  }

  /** The slot as an instant; empty for a decision that runs now. */
  public Optional<Instant> slot() {
    return runsNow() ? Optional.empty() : Optional.of(EpochNanos.toInstant(slotEpochNanos));
  }

  /** How long until the slot; zero for a decision that runs now. */
  public Duration retryAfter() {
    return Duration.ofNanos(retryAfterNanos);
  }
}
