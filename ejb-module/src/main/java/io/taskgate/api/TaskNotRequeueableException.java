package io.taskgate.api;

import java.util.UUID;

/**
 * A task cannot be queued again: it has not ended as FAILED or CANCELLED, no handler runs its type
 * any more, or another task with its task key is queued or running. The message names the task and
 * the reason.
 */
public class TaskNotRequeueableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final UUID taskId;
  private final TaskStatus status;

  public TaskNotRequeueableException(UUID taskId, TaskStatus status, String reason) {
    super("Task " + taskId + " cannot be queued again: " + reason);
    this.taskId = taskId;
    this.status = status;
  }

  /** The task. */
  public UUID taskId() {
    return taskId;
  }

  /** Its status when it was refused. */
  public TaskStatus status() {
    return status;
  }
}
