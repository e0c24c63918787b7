package io.taskgate.engine.throttle;

/** How an attempt ended, as its throttles' permits are given back. */
public enum AttemptEnd {
  /** The handler returned. */
  COMPLETED,
  /** The handler threw, and no attempt is left. */
  FAILED,
  /** The handler threw (or timed out) and the task will be tried again. */
  RETRIED,
  /** The attempt ran over its timeout and was interrupted, and no attempt is left. */
  TIMED_OUT,
  /** The task was cancelled before it started. */
  CANCELLED,
  /** It never started: another throttle of the task said no, or the claim was lost. */
  NOT_STARTED,
  /**
   * The worker stopped before the attempt had an outcome: the engine failed on the way (the store
   * could not commit the claim, say); the task is let go and the sweep brings it back.
   */
  ABORTED,
  /** The instance crashed during the attempt; recovery gives its permits back. */
  RECOVERED
}
