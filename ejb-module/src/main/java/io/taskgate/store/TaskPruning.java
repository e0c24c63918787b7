package io.taskgate.store;

/**
 * Deletes ended tasks with their audit rows: what retention and an operator's bulk delete do. Only
 * tasks in an ended status (COMPLETED, FAILED, CANCELLED) are ever deleted, and the filter is
 * checked again as they are deleted, so that a task requeued meanwhile stays.
 */
public interface TaskPruning {
  /** What {@link #delete} answers when another instance is deleting (it took the lock first). */
  int BUSY = -1;

  /**
   * Deletes at most {@code max} of the tasks {@code filter} takes, those that ended first (then in
   * id order), and their audit rows, in one transaction.
   *
   * @param exclusive take the database's lock for pruning first (PostgreSQL: an advisory lock held
   *     until the transaction ends), and give up at once if another instance holds it
   * @return how many tasks were deleted, or {@link #BUSY}
   * @throws IllegalArgumentException if {@code filter} takes a status that has not ended
   */
  int delete(TaskFilter filter, int max, boolean exclusive);
}
