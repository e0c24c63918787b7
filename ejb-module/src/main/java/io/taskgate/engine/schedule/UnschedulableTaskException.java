package io.taskgate.engine.schedule;

/**
 * A stored task that the engine cannot schedule (a due time beyond what it can wait for, a
 * recurrence it cannot read): the task is failed on its own, with this message as its error.
 */
public class UnschedulableTaskException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UnschedulableTaskException(String message) {
    super(message);
  }

  public UnschedulableTaskException(String message, Throwable cause) {
    super(message, cause);
  }
}
