package io.taskgate.api;

import java.time.Instant;
import java.util.UUID;

/**
 * What a dispatch did.
 *
 * @param taskId the stored task's id (the existing task's when {@code replaced})
 * @param scheduledAt when it is due
 * @param replaced whether a live task with the same task key got the new payload instead
 * @param estimatedStart when it is expected to start: {@code scheduledAt}, or later when its key of
 *     a rate-limited type has no budget left then (the limiter's next free slot at dispatch, read
 *     without spending budget; other tasks of the key dispatched meanwhile may move it)
 */
public record TaskReceipt(
    UUID taskId, Instant scheduledAt, boolean replaced, Instant estimatedStart) {

  /** A receipt whose task is expected to start when it is due. */
  public TaskReceipt(UUID taskId, Instant scheduledAt, boolean replaced) {
    this(taskId, scheduledAt, replaced, scheduledAt);
  }
}
