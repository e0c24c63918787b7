package io.taskgate.api;

/**
 * Where a task is in its life. The allowed moves are in {@code io.taskgate.core.task.TaskStates}.
 */
public enum TaskStatus {
  /** Stored and waiting to run: now, at its scheduled time, or at a reserved rate-limit slot. */
  QUEUED,
  /** An attempt is running. */
  IN_PROGRESS,
  /** Done (for a recurring task: the series has ended). */
  COMPLETED,
  /** Failed for good: retries exhausted or rejected. */
  FAILED,
  /** Cancelled before it ran. */
  CANCELLED;

  /** Whether nothing more happens to the task. */
  public boolean terminal() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }
}
