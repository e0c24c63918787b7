package io.taskgate.store;

import io.taskgate.api.TaskStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The read model over the stored tasks: what the admin facade shows (pages of tasks, a task's audit
 * rows, counts per queue and status) and what recovery streams back into the engine after a
 * restart. Reads only; the engine's own reads and writes are {@link TaskStore}'s. Implementations
 * are thread-safe.
 */
public interface TaskQueries {
  /** Up to {@code max} tasks in any of {@code statuses}, oldest scheduledAt first. */
  List<StoredTask> findByStatus(Set<TaskStatus> statuses, int max);

  /**
   * Up to {@code max} QUEUED tasks, due or not, in (scheduledAt, id) order, starting after {@code
   * after} (null: from the first): what recovery streams into the engine a page at a time.
   */
  List<DueTask> findQueued(DueTask after, int max);

  /**
   * Up to {@code max} tasks in {@code status} held by no instance in {@code live}: without an
   * owner, or owned by one not in the set. In id order, starting after {@code after} (null: from
   * the first). What an instance reads to take over the tasks of instances that died or stopped.
   */
  List<StoredTask> findOrphans(TaskStatus status, Set<String> live, UUID after, int max);

  /**
   * Up to {@code max} tasks in {@code status} owned by one of {@code owners}, in id order, starting
   * after {@code after} (null: from the first): the tasks of instances that died, to take over.
   */
  List<StoredTask> findOwnedBy(TaskStatus status, Set<String> owners, UUID after, int max);

  /**
   * Up to {@code max} tasks of {@code types} that started and have not ended: IN_PROGRESS, or, with
   * {@code retrying}, QUEUED after an attempt (waiting for a retry, or taken back from a crash); in
   * id order, after {@code after} (null: from the first). What holds a mutex or semaphore.
   */
  List<StoredTask> findStarted(Set<String> types, boolean retrying, UUID after, int max);

  /**
   * Up to {@code max} tasks that {@code filter} takes, in id order, starting after {@code after}
   * (null: from the first): what a bulk action works through, a page at a time.
   */
  List<StoredTask> find(TaskFilter filter, UUID after, int max);

  /** How many tasks {@code filter} takes. */
  long count(TaskFilter filter);

  /** A page of tasks matching the query, newest first, and how many match in all. */
  TaskPage query(TaskQuery query);

  /** The audit rows of a task, oldest first. */
  List<TaskAudit> history(UUID id);

  /**
   * How many tasks each queue has in each status, in one read; queues and statuses without tasks
   * are absent.
   */
  Map<String, Map<TaskStatus, Long>> countByQueueAndStatus();

  /**
   * The due time of each queue's longest-waiting QUEUED task that was due by {@code now}, in one
   * read; queues with no such task are absent.
   */
  Map<String, Instant> oldestDueByQueue(Instant now);

  /**
   * How many tasks each instance holds IN_PROGRESS (running, or claimed to start at its slot), by
   * owner, in one read; instances without such tasks are absent.
   */
  Map<String, Long> countInProgressByOwner();
}
