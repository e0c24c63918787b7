package io.taskgate.api;

/** What happens to a task that a throttle does not let run now. */
public enum ThrottlingAction {
  /**
   * The global default, {@code taskgate.throttling.action} in MicroProfile Config ({@link #WAIT}
   * unless set).
   */
  CONFIGURED,
  /**
   * The task stays queued, holding no worker, and runs when the throttle lets it: woken in arrival
   * order when a mutex or semaphore permit is given back, or when its window opens.
   */
  WAIT,
  /**
   * The task ends CANCELLED with the reason as its last error; its handler's {@code onError} gets a
   * {@link TaskThrottledException}.
   */
  DROP
}
