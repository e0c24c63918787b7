package io.taskgate.api;

/** When the mutexes and semaphores of a task are given back. */
public enum Strictness {
  /**
   * The global default, {@code taskgate.throttling.strict} in MicroProfile Config ({@link #RELAXED}
   * unless set to true).
   */
  CONFIGURED,
  /**
   * Whenever an attempt stops running, whatever its outcome: a failed attempt waiting for its retry
   * holds nothing.
   */
  RELAXED,
  /**
   * Only when the task reaches a final state (COMPLETED, FAILED with no attempt left, CANCELLED): a
   * task waiting for its retry keeps its permits, so no other task sees its partial effects.
   */
  STRICT
}
