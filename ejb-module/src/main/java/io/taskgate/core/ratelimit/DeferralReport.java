package io.taskgate.core.ratelimit;

import io.taskgate.api.RateLimitDeferred;
import java.time.Duration;
import java.util.UUID;

/**
 * What a {@link DeferralAggregator} reports about the deferrals of one (scope, key): the first of a
 * window, or the summary of the rest of it.
 *
 * @param taskId the task deferred (for a summary: the last one deferred in the window)
 * @param scope the scope's name (the task type)
 * @param key the throttling key
 * @param slotEpochNanos that task's reserved slot, nanoseconds since the epoch (UTC)
 * @param deferredCount deferrals this report accounts for: 1 for the first of a window; for a
 *     summary, those after the first. The counts of all reports add up to all deferrals.
 * @param summary whether this is the summary at the end of a window
 * @param windowStartEpochNanos when the window opened: the time of its first deferral
 * @param windowNanos the window's length
 */
public record DeferralReport(
    UUID taskId,
    String scope,
    String key,
    long slotEpochNanos,
    long deferredCount,
    boolean summary,
    long windowStartEpochNanos,
    long windowNanos) {

  /**
   * The one-line, machine-parseable text, its event's ({@link RateLimitDeferred#message()}): {@code
   * Rate limit deferred task <id>: key=<key> slotUtc=<ISO-8601 instant> policy=<scope>
   * deferredCount=<n>}.
   */
  public String message() {
    return toEvent().message();
  }

  /** This report as the CDI event {@link RateLimitDeferred}, its instants and window as such. */
  public RateLimitDeferred toEvent() {
    return new RateLimitDeferred(
        taskId,
        scope,
        key,
        EpochNanos.toInstant(slotEpochNanos),
        deferredCount,
        summary,
        EpochNanos.toInstant(windowStartEpochNanos),
        Duration.ofNanos(windowNanos));
  }
}
