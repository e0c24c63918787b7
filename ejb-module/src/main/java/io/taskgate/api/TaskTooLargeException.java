package io.taskgate.api;

/**
 * A task whose JSON form is larger than {@code taskgate.dispatch.max-payload-bytes}: refused at
 * dispatch, nothing is stored. Keep large data elsewhere and give the task a reference to it.
 */
public class TaskTooLargeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String taskType;
  private final long bytes;
  private final long maxBytes;

  /**
   * @param taskType the task type's class name
   * @param bytes the size of its JSON form in UTF-8 bytes
   * @param maxBytes the limit
   */
  public TaskTooLargeException(String taskType, long bytes, long maxBytes) {
    super(
        "Task "
            + taskType
            + " is "
            + bytes
            + " bytes as JSON, more than taskgate.dispatch.max-payload-bytes ("
            + maxBytes
            + "): keep large data elsewhere and give the task a reference to it");
    this.taskType = taskType;
    this.bytes = bytes;
    this.maxBytes = maxBytes;
  }

  /** The task type's class name. */
  public String taskType() {
    return taskType;
  }

  /** The size of the task's JSON form in UTF-8 bytes. */
  public long bytes() {
    return bytes;
  }

  /** The limit, {@code taskgate.dispatch.max-payload-bytes}. */
  public long maxBytes() {
    return maxBytes;
  }
}
