package io.taskgate.engine.admin.dto;

import io.taskgate.api.PauseScope;
import java.time.Instant;

/**
 * A pause in force, as the views show it.
 *
 * @param scope what is paused: a queue, a task type or a rate-limit key
 * @param name the queue, the task type's full class name, or the key (user data: escape it)
 * @param pausedAt when it was paused
 * @param pausedBy who paused it
 * @param reason why, as the operator put it (user data); null for none
 * @param queued how many QUEUED tasks it holds (stored, on every instance)
 * @param waitingHere how many of them came due and wait for it on this instance
 */
public record PauseView(
    PauseScope scope,
    String name,
    Instant pausedAt,
    String pausedBy,
    String reason,
    long queued,
    int waitingHere) {

  /** What is paused, as the pages say it: {@code queue emails}. */
  public String describe() {
    return scope.label() + " " + name;
  }
}
