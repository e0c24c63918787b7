package io.taskgate.engine.admin.dto;

import java.time.Instant;
import java.util.List;

/**
 * What happened to tasks minute by minute over the last minutes, summed over the instances sharing
 * the database, per queue and task type ({@link io.taskgate.engine.admin.StatsViews#stats}).
 *
 * @param instances the instances whose counts are summed, by id: the one answering and every one
 *     that counted something in the window (the one answering alone if the others' could not be
 *     read)
 * @param from the start of the first minute (UTC)
 * @param minutes how many minutes, the last one being the current, still counting, minute
 * @param retainedMinutes how many minutes the history keeps: the most that can be asked for
 * @param total the sum of the series, minute by minute
 * @param series per (queue, task type) that counted anything in the window, by queue then type, at
 *     most 256: beyond, the rest are summed under the queue and type "(other)", last
 * @param limiters per {@code @RateLimited} limiter that counted anything in the window, by name, at
 *     most 256: beyond, the rest are summed under the name "(other)", last; the queue and type
 *     filters do not apply to them
 */
public record StatsView(
    List<String> instances,
    Instant from,
    int minutes,
    int retainedMinutes,
    Counts total,
    List<Series> series,
    List<LimiterSeries> limiters) {

  /**
   * One queue and task type's counts.
   *
   * @param queue the queue
   * @param taskType the task type's class name
   * @param counts its counts, minute by minute
   */
  public record Series(String queue, String taskType, Counts counts) {}

  /**
   * Counts, one value a minute, the oldest first.
   *
   * @param started attempts started
   * @param completed tasks completed
   * @param failed tasks failed for good (retries spent, or rejected)
   * @param parked tasks the rate-limit gate parked until their key's next slot
   * @param rejected tasks the rate-limit gate rejected, for either reason
   * @param rejectedBeyondHorizon rejected: the key's next slot lay beyond the policy's horizon
   * @param rejectedDiscarded rejected: the key had no budget and the policy discards
   * @param failedOpen tasks let through unthrottled because the limiter tracked as many keys as it
   *     may
   * @param throttleWaited tasks a job throttler (mutex, semaphore, window) made wait, counted at
   *     their first wait
   * @param throttleDropped tasks a job throttler dropped
   */
  public record Counts(
      long[] started,
      long[] completed,
      long[] failed,
      long[] parked,
      long[] rejected,
      long[] rejectedBeyondHorizon,
      long[] rejectedDiscarded,
      long[] failedOpen,
      long[] throttleWaited,
      long[] throttleDropped) {}

  /**
   * One {@code @RateLimited} limiter's calls.
   *
   * @param limiter the limiter's name
   * @param counts its counts, minute by minute
   */
  public record LimiterSeries(String limiter, CallCounts counts) {}

  /**
   * A limiter's calls, one value a minute, the oldest first.
   *
   * @param granted calls let in, at once or after a wait
   * @param waited calls let in after they waited for a permit
   * @param refused calls refused
   * @param failedOpen calls let through untracked because the limiter tracked as many keys as it
   *     may
   */
  public record CallCounts(long[] granted, long[] waited, long[] refused, long[] failedOpen) {}
}
