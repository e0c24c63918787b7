package io.taskgate.store;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * An audit row that records no change of status: a queued task parked until its rate-limit slot.
 *
 * @param taskId the task
 * @param taskVersion the task's version when it was noted
 * @param at when
 * @param attempt the task's attempt count
 * @param detail what happened, as a sentence
 */
public record TaskNote(UUID taskId, long taskVersion, Instant at, int attempt, String detail) {
  /** Checks the fields that must be present. */
  public TaskNote {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(detail, "detail");
  }
}
