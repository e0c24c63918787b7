package io.taskgate.store;

/**
 * What one instance counted in one minute for one queue and task type, or for one
 * {@code @RateLimited} limiter: the row of the history that instances share through the database
 * ({@link HistoryStore}).
 *
 * @param instance the instance that counted
 * @param epochMinute the minute, in minutes since the epoch
 * @param queue the queue; empty for a limiter's row
 * @param taskType the task type's class name; a limiter's name for a limiter's row
 * @param started attempts started
 * @param completed tasks completed
 * @param failed tasks failed for good
 * @param parked tasks the rate-limit gate parked
 * @param rejectedBeyondHorizon tasks rejected: their key's next slot lay beyond the horizon
 * @param rejectedDiscarded tasks rejected: no budget, and the policy discards
 * @param failedOpen tasks let through unthrottled at the tracked-key cap
 * @param throttleWaited tasks a job throttler made wait
 * @param throttleDropped tasks a job throttler dropped
 * @param callsGranted calls a limiter let in
 * @param callsWaited calls a limiter let in after a wait
 * @param callsRefused calls a limiter refused
 */
public record MinuteRecord(
    String instance,
    long epochMinute,
    String queue,
    String taskType,
    long started,
    long completed,
    long failed,
    long parked,
    long rejectedBeyondHorizon,
    long rejectedDiscarded,
    long failedOpen,
    long throttleWaited,
    long throttleDropped,
    long callsGranted,
    long callsWaited,
    long callsRefused) {

  /** Whether nothing was counted. */
  public boolean empty() {
    return started == 0
        && completed == 0
        && failed == 0
        && parked == 0
        && rejectedBeyondHorizon == 0
        && rejectedDiscarded == 0
        && failedOpen == 0
        && throttleWaited == 0
        && throttleDropped == 0
        && callsGranted == 0
        && callsWaited == 0
        && callsRefused == 0;
  }
}
