package io.taskgate.api;

import java.time.Instant;
import java.util.UUID;

/**
 * CDI event: the rate-limit gate rejected a task for good (see {@link RateLimitRejectedException}).
 * Always fired, whatever the deferral-event setting.
 *
 * @param taskId the task rejected
 * @param taskType the task type's name (the scope of the budget)
 * @param key the throttling key as the limiter tracks it
 * @param slotUtc the slot the task would have needed
 * @param reason why
 */
public record RateLimitRejected(
    UUID taskId,
    String taskType,
    String key,
    Instant slotUtc,
    RateLimitRejectedException.Reason reason) {

  /**
   * One machine-parseable line: {@code Rate limit rejected task <id>: key=<key> slotUtc=<instant>
   * policy=<taskType> reason=<reason>}.
   */
  public String message() {
    return RateLimitLines.taskLine("rejected", taskId, key, slotUtc, taskType)
        + " reason="
        + reason;
  }
}
