package io.taskgate.test;

import io.taskgate.api.Task;
import java.time.Instant;
import java.util.UUID;

/**
 * One attempt of a task that started.
 *
 * @param taskId the task's id, as {@link ManualTaskgate#dispatch} returned it
 * @param task the task
 * @param handler the class of the handler that ran it
 * @param attempt the attempt's number, from 1 (a retry is 2, …)
 * @param startedAt when it started, on the test's clock
 * @param throttledUntil the slot its key's rate limit held it until, or null if it ran when due
 * @param outcome what it came to
 * @param failure what the handler threw, or null
 */
public record Run(
    UUID taskId,
    Task task,
    Class<?> handler,
    int attempt,
    Instant startedAt,
    Instant throttledUntil,
    Outcome outcome,
    Throwable failure) {

  /** What an attempt came to. */
  public enum Outcome {
    /** The handler returned: the task is COMPLETED. */
    COMPLETED,
    /** The handler threw; the task runs again after its retry delay. */
    RETRY,
    /** The handler threw on its last attempt: the task FAILED. */
    FAILED,
    /** A recurring task's run ended; it runs again at its next occurrence. */
    NEXT_OCCURRENCE,
    /** The handler threw {@code UpstreamRateLimitException}: the attempt does not count. */
    PUSHED_BACK
  }
}
