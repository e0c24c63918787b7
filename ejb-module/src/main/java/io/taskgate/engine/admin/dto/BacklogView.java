package io.taskgate.engine.admin.dto;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What waits, how long, and who holds what: the backlog metrics' reading, taken in a few reads of
 * the database.
 *
 * @param at when it was taken
 * @param queues each queue, the configured ones first, then those with stored tasks
 * @param instancesAlive instances sharing the database whose last heartbeat is within the timeout
 * @param instancesDead instances with a row whose last heartbeat is older
 * @param deadInstanceTasks tasks IN_PROGRESS held by the dead instances (recovery gives them back)
 */
public record BacklogView(
    Instant at,
    List<QueueBacklog> queues,
    int instancesAlive,
    int instancesDead,
    long deadInstanceTasks) {

  /** Keeps an unmodifiable copy of the queues. */
  public BacklogView {
    queues = List.copyOf(queues);
  }

  /**
   * One queue.
   *
   * @param queue its name
   * @param queued its QUEUED tasks, due or not, parked and paused ones included
   * @param inProgress its IN_PROGRESS tasks, on every instance
   * @param oldestDue the due time of its longest-waiting QUEUED task that is due; null for none
   */
  public record QueueBacklog(String queue, long queued, long inProgress, Instant oldestDue) {

    /** How long its longest-waiting due task has waited at {@code at}; zero for none. */
    public Duration age(Instant at) {
      return oldestDue == null || oldestDue.isAfter(at)
          ? Duration.ZERO
          : Duration.between(oldestDue, at);
    }
  }
}
