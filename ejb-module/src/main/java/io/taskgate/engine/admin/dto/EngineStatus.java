package io.taskgate.engine.admin.dto;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * How the engine is doing, for health checks and metrics.
 *
 * @param started when the workers started; null while they wait for the application to initialise
 * @param lastSweep when the store was last swept for due tasks; null if not yet
 * @param sweepInterval how often the sweep runs at most
 * @param queues each queue's depth and workers against its settings
 * @param parkedTasks tasks parked until their rate-limit slot
 * @param heldTasks rate-limited tasks held on their queues while the parking lot is full
 */
public record EngineStatus(
    Instant started,
    Instant lastSweep,
    Duration sweepInterval,
    List<QueueStatus> queues,
    int parkedTasks,
    int heldTasks) {

  /**
   * One queue.
   *
   * @param name the queue
   * @param waiting tasks in its channel
   * @param capacity the most its channel holds
   * @param workers workers running now
   * @param parallelism the most workers it runs
   */
  public record QueueStatus(String name, int waiting, int capacity, int workers, int parallelism) {}
}
