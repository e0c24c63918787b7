package io.taskgate.api;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * CDI event: tasks of one (type, key) were deferred to a later slot because the key had no budget.
 * Aggregated at the source: the first deferral of a key in a window is reported at once ({@code
 * summary} false, {@code deferredCount} 1), the rest of that window by one summary when it ends.
 * Off when {@code taskgate.rate-limit.emit-deferral-events} is false. Observe it with
 * {@code @Observes RateLimitDeferred}; keep observers quick.
 *
 * @param taskId the task deferred (for a summary: the last one deferred in the window)
 * @param taskType the task type's name (the scope of the budget)
 * @param key the throttling key as the limiter tracks it
 * @param slotUtc that task's reserved slot
 * @param deferredCount deferrals this event accounts for: 1 for the first of a window, for a
 *     summary those after the first, so that the counts of all events add up to all deferrals
 * @param summary whether this is the summary at the end of a window
 * @param windowStart when the window opened
 * @param window the window's length
 */
public record RateLimitDeferred(
    UUID taskId,
    String taskType,
    String key,
    Instant slotUtc,
    long deferredCount,
    boolean summary,
    Instant windowStart,
    Duration window) {

  /**
   * One machine-parseable line: {@code Rate limit deferred task <id>: key=<key> slotUtc=<instant>
   * policy=<taskType> deferredCount=<n>}.
   */
  public String message() {
    return RateLimitLines.taskLine("deferred", taskId, key, slotUtc, taskType)
        + " deferredCount="
        + deferredCount;
  }
}
