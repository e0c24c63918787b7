package io.taskgate.api;

/**
 * A task was dropped by a throttle: its handler's {@code onError} gets this when the throttling
 * action is {@link ThrottlingAction#DROP}, or when a waiting task waited longer than its max wait.
 * The task ends CANCELLED with the same message as its last error.
 */
public class TaskThrottledException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String throttle;

  /**
   * @param throttle the throttle that dropped the task ({@code mutex:order-42})
   * @param message why, naming the throttle
   */
  public TaskThrottledException(String throttle, String message) {
    super(message);
    this.throttle = throttle;
  }

  /** The throttle that dropped the task, {@code kind:id} ({@code semaphore:newsletter}). */
  public String throttle() {
    return throttle;
  }
}
