package io.taskgate.api;

import java.time.Duration;

/** An attempt ran longer than its handler's {@code timeout}. */
public class TaskTimeoutException extends Exception {
  private static final long serialVersionUID = 1L;

  public TaskTimeoutException(TaskContext context, Duration timeout) {
    super(
        "Task "
            + context.taskId()
            + " ("
            + context.taskType()
            + ") attempt "
            + context.attempt()
            + " exceeded its timeout of "
            + timeout);
  }
}
