package io.taskgate.api;

/** Whether a throttle on a task type still takes permits or only gives them back. */
public enum ThrottlerMode {
  /** Tasks acquire the throttle before they run and give it back when they end (the default). */
  ACQUIRE_AND_RELEASE,
  /**
   * Tasks no longer acquire the throttle; permits held from before are still given back. Set it
   * before removing a {@link Mutex} or {@link Semaphore} from a handler whose tasks may hold it,
   * deploy, let them finish, then remove the annotation.
   */
  RELEASE_ONLY
}
