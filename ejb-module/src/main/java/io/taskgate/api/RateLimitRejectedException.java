package io.taskgate.api;

import java.time.Instant;
import java.util.Objects;

/**
 * A task the rate-limit gate will never run: its key's next free slot lies beyond the policy's
 * {@code maxReservationHorizon}, the key had no budget and the policy discards on overflow, or the
 * task costs more than the key's burst (and then {@code slotUtc=null} and {@code cost=} ends it). A
 * one-shot task so rejected ends FAILED (never CANCELLED) and its handler's {@link Handler#onError}
 * receives this exception.
 *
 * <p>The message is machine-readable, one line of {@code name=value} pairs after a fixed prefix:
 *
 * <pre>
 * Rate limit rejected task of type com.acme.SyncTenantData: reason=BEYOND_HORIZON key=tenant-7
 *   slotUtc=2026-11-22T11:04:00Z handler=com.acme.SyncTenantDataHandler permits=15 period=PT1M
 *   burst=15 maxReservationHorizon=PT1H overflow=WAIT_FOR_CAPACITY
 * </pre>
 *
 * (on one line). The policy is not serialized with the exception.
 */
public class RateLimitRejectedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the task was rejected. */
  public enum Reason {
    /** The key's next free slot lies beyond the policy's reservation horizon. */
    BEYOND_HORIZON,
    /** The key had no budget and the policy discards on overflow. */
    DISCARDED,
    /**
     * The task costs more units than its key's burst (the key's policy was changed since the task
     * was dispatched): it could never run.
     */
    COST_ABOVE_BURST
  }

  private final String taskType;
  private final String handler;
  private final String key;
  private final Instant slotUtc;
  private final transient RateLimitPolicy policy;
  private final Reason reason;
  private final int cost;

  /**
   * @param taskType the task type's name (the scope of the budget)
   * @param handler the handler class's name
   * @param key the throttling key as the limiter tracks it (hashed when it was too long)
   * @param slotUtc the slot the task would have needed
   * @param policy the policy that rejected it
   * @param reason why
   */
  public RateLimitRejectedException(
      String taskType,
      String handler,
      String key,
      Instant slotUtc,
      RateLimitPolicy policy,
      Reason reason) {
    this(taskType, handler, key, slotUtc, policy, reason, 1);
  }

  /**
   * The same, for a task that costs {@code cost} units of its key's budget.
   *
   * @param slotUtc the slot the task would have needed; null for {@link Reason#COST_ABOVE_BURST}
   * @param cost the task's cost, at least 1
   */
  public RateLimitRejectedException(
      String taskType,
      String handler,
      String key,
      Instant slotUtc,
      RateLimitPolicy policy,
      Reason reason,
      int cost) {
    super(
        message(taskType, handler, key, slotUtc, policy, reason)
            + (cost == 1 ? "" : " cost=" + cost));
    this.taskType = taskType;
    this.handler = handler;
    this.key = key;
    this.slotUtc = slotUtc;
    this.policy = policy;
    this.reason = reason;
    this.cost = cost;
  }

  private static String message(
      String taskType,
      String handler,
      String key,
      Instant slotUtc,
      RateLimitPolicy policy,
      Reason reason) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(reason, "reason");
    return "Rate limit rejected task of type "
        + taskType
        + ": reason="
        + reason
        + " key="
        + key
        + " slotUtc="
        + slotUtc
        + " handler="
        + handler
        + " permits="
        + policy.permits()
        + " period="
        + policy.period()
        + " burst="
        + policy.burst()
        + " maxReservationHorizon="
        + policy.maxReservationHorizon()
        + " overflow="
        + policy.overflow();
  }

  /** The task type's name. */
  public String taskType() {
    return taskType;
  }

  /** The handler class's name. */
  public String handler() {
    return handler;
  }

  /** The throttling key as the limiter tracks it. */
  public String key() {
    return key;
  }

  /** The slot the task would have needed (UTC). */
  public Instant slotUtc() {
    return slotUtc;
  }

  /** The policy that rejected the task; null after deserialization. */
  public RateLimitPolicy policy() {
    return policy;
  }

  /** Why the task was rejected. */
  public Reason reason() {
    return reason;
  }

  /** How many units of its key's budget the task costs. */
  public int cost() {
    return cost;
  }
}
