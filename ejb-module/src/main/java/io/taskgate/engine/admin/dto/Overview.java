package io.taskgate.engine.admin.dto;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Tasks at a glance.
 *
 * @param at when the view was taken
 * @param tasks tasks per status (every status, by name)
 * @param queues each queue, the configured ones first
 * @param throttledTasks tasks waiting for budget (parked until their slot, or held because the
 *     parking lot is full); null, and left out of JSON, while none is
 * @param parkedTasks tasks parked until their slot on this instance
 * @param peerParkedTasks tasks parked on the live peers sharing the database, as of their last
 *     heartbeats
 * @param heldTasks tasks held on their queues because the parking lot is full
 * @param retention how long ended tasks are kept, and what the pruner did on this instance
 */
public record Overview(
    Instant at,
    Map<String, Long> tasks,
    List<QueueOverview> queues,
    Integer throttledTasks,
    int parkedTasks,
    int peerParkedTasks,
    int heldTasks,
    RetentionView retention) {

  /**
   * How long ended tasks are kept ({@code taskgate.retention.*}), and this instance's pruner.
   *
   * @param keep per ended status, how long after it ended a task is kept (ISO-8601), or {@code
   *     forever}
   * @param lastRun when the pruner last ran here; null before its first run (a minute after start)
   * @param lastDeleted tasks its last run deleted here
   * @param deletedSinceStart tasks it deleted here since this instance started
   * @param lastError why its last run stopped early; null if it did not
   */
  public record RetentionView(
      Map<String, String> keep,
      Instant lastRun,
      long lastDeleted,
      long deletedSinceStart,
      String lastError) {}

  /**
   * One queue.
   *
   * @param name its name
   * @param configured whether it is configured ({@code default} or in {@code taskgate.queues});
   *     tasks stored for another name run on {@code default}
   * @param capacity task ids its channel holds (0 when not configured)
   * @param parallelism tasks it runs at once (0 when not configured)
   * @param depth task ids in its channel now, held ones included
   * @param tasks its tasks per status (every status, by name)
   * @param throttledCount its tasks waiting for budget; null, and left out of JSON, while none is
   */
  public record QueueOverview(
      String name,
      boolean configured,
      int capacity,
      int parallelism,
      int depth,
      Map<String, Long> tasks,
      Integer throttledCount) {}
}
