package io.taskgate.api;

import java.time.Duration;

/**
 * Runs tasks of one type. Implement it on a CDI bean annotated {@link TaskHandler}; Taskgate finds
 * the bean at deployment and calls {@link #handle} for every task of type {@code T}.
 *
 * <p>The callbacks run on the worker thread around each attempt; an exception thrown by a callback
 * is logged and never changes the task's outcome.
 *
 * @param <T> the task type this handler runs; exactly one handler per task type
 */
public interface Handler<T extends Task> {

  /** Does the work. Throwing fails the attempt: the retry policy decides what happens next. */
  void handle(T task, TaskContext context) throws Exception;

  /** Before each attempt. */
  default void onStarted(T task, TaskContext context) {}

  /** After the attempt that succeeded. */
  default void onCompleted(T task, TaskContext context) {}

  /** Once, when the task has failed for good (retries exhausted or a terminal rejection). */
  default void onError(T task, TaskContext context, Throwable error) {}

  /**
   * After a failed attempt that will be retried.
   *
   * @param attempt the attempt that failed, from 1
   * @param delay the retry policy's backoff before the next attempt
   * @param cause why the attempt failed
   */
  default void onRetry(T task, TaskContext context, int attempt, Duration delay, Throwable cause) {}
}
