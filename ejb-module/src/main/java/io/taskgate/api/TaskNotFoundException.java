package io.taskgate.api;

import java.util.UUID;

/** No task has this id. */
public class TaskNotFoundException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final UUID taskId;

  public TaskNotFoundException(UUID taskId) {
    super("No task has id " + taskId);
    this.taskId = taskId;
  }

  /** The id asked for. */
  public UUID taskId() {
    return taskId;
  }
}
