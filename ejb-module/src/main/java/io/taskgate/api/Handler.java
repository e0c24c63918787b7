package io.taskgate.api;

import java.time.Duration;

/**
 * Runs tasks of one type. Implement it on a CDI bean annotated {@link TaskHandler}; Taskgate finds
 * the bean at deployment and calls {@link #handle} for every task of type {@code T}.
 *
 * <p>The callbacks run on the worker thread around each attempt; an exception thrown by a callback
 * is logged and never changes the task's outcome.
 *
 * <p><b>Rate limiting.</b> Tasks of {@code T} are throttled per key when the handler has a policy:
 * the {@link RateLimit} annotation, or {@link #rateLimitPolicy()} overridden (which wins over the
 * annotation). Each task's key comes from {@link #rateLimitKey(Task)}, which by default returns the
 * task's own {@link RateLimitedTask#rateLimitKey()}; override it when the task type cannot carry
 * the key.
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

  /**
   * The rate-limit policy of this task type, overriding the handler's {@link RateLimit} annotation;
   * null (the default): the annotation's policy, or none. Build it with {@link
   * RateLimitPolicy#of(int, Duration)} and its {@code with…} methods.
   *
   * <p>Taskgate calls it <b>once, when the application deploys</b>, on an instance of the handler
   * it creates (and destroys) for that purpose, so the policy may come from injected configuration
   * but not from a request or a task; it applies to every task of {@code T}. If it throws (for
   * example because {@link RateLimitPolicy} refused a value) the deployment fails with a message
   * naming the handler, the option and the value.
   */
  default RateLimitPolicy rateLimitPolicy() {
    return null;
  }

  /**
   * The throttling key of {@code task}: by default its {@link RateLimitedTask#rateLimitKey()}, or
   * null when {@code T} does not implement {@link RateLimitedTask}. Override it to derive the key
   * without touching the task type; an override <b>replaces</b> the task's own key (call {@code
   * Handler.super.rateLimitKey(task)} to fall back to it). Null or empty: this task is not
   * throttled. An exception is not a failure of the task: it runs unthrottled, with a warning.
   *
   * <p>Taskgate calls it on an instance of the handler each time a task of {@code T} passes the
   * rate-limit gate (before the attempt, outside its timeout); it should be cheap and must not have
   * side effects. The key is a throttling key shared by many tasks, not the dispatch {@code
   * taskKey}.
   */
  default String rateLimitKey(T task) {
    return task instanceof RateLimitedTask limited ? limited.rateLimitKey() : null;
  }

  /**
   * How many units of its key's budget {@code task} spends: by default its {@link
   * RateLimitedTask#rateLimitCost()}, or 1 when {@code T} does not implement {@link
   * RateLimitedTask}. Override it to weigh tasks without touching the task type (an override, like
   * one of {@link #rateLimitKey(Task)}, makes Taskgate ask this handler for the key too). At least
   * 1 and at most the policy's burst; a dispatch outside that is refused.
   */
  default int rateLimitCost(T task) {
    return task instanceof RateLimitedTask limited ? limited.rateLimitCost() : 1;
  }
}
