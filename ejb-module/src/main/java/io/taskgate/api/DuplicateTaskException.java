package io.taskgate.api;

import java.util.UUID;

/**
 * A dispatch was refused: a task with the same unique key exists ({@link Unique}, {@link
 * UniqueConflict#REJECT}). The message names the type, the key and the existing task.
 */
public class DuplicateTaskException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String type;
  private final String key;
  private final UUID existingTaskId;
  private final TaskStatus existingStatus;

  public DuplicateTaskException(
      String type, String key, UUID existingTaskId, TaskStatus existingStatus) {
    super(
        "A task of type "
            + type
            + " with unique key "
            + key
            + " exists already: task "
            + existingTaskId
            + ", "
            + existingStatus);
    this.type = type;
    this.key = key;
    this.existingTaskId = existingTaskId;
    this.existingStatus = existingStatus;
  }

  /** The task type's full class name. */
  public String type() {
    return type;
  }

  /** The unique key. */
  public String key() {
    return key;
  }

  /** The existing task. */
  public UUID existingTaskId() {
    return existingTaskId;
  }

  /** Its status when the dispatch was refused. */
  public TaskStatus existingStatus() {
    return existingStatus;
  }
}
