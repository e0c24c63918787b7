package io.taskgate.engine.standalone;

import io.taskgate.api.Task;
import java.time.Instant;
import java.util.UUID;

/**
 * One attempt the {@link StandaloneEngine} started: the task, its handler, its number (from 1),
 * when it started, the slot its rate limit held it until (or null), and what it came to, with the
 * handler's failure.
 */
public record Attempt(
    UUID taskId,
    Task task,
    Class<?> handlerClass,
    int number,
    Instant startedAt,
    Instant throttledUntil,
    Attempt.Outcome outcome,
    Throwable failure) {

  /** What an attempt came to. */
  public enum Outcome {
    /** The handler returned. */
    COMPLETED,
    /** The handler threw; the task runs again after its retry delay. */
    RETRY,
    /** The handler threw and no attempt is left: the task FAILED. */
    FAILED,
    /** A recurring task's run ended; it runs again at its next occurrence. */
    NEXT_OCCURRENCE,
    /** The handler threw {@code UpstreamRateLimitException}: the attempt does not count. */
    PUSHED_BACK
  }
}
