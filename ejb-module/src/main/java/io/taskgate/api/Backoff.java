package io.taskgate.api;

/** How the delay between attempts grows. */
public enum Backoff {
  /** The same delay before every retry. */
  FIXED,
  /** The delay doubles with every retry, up to the maximum. */
  EXPONENTIAL
}
