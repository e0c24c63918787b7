package io.taskgate.api;

import java.time.Instant;
import java.util.UUID;

/**
 * What a dispatch did.
 *
 * @param taskId the stored task's id (the existing task's when {@code replaced} or {@code
 *     duplicate})
 * @param scheduledAt when it is due
 * @param replaced whether a live task with the same task key got the new payload instead
 * @param estimatedStart when it is expected to start: {@code scheduledAt}, or later when its key of
 *     a rate-limited type has no budget left then (the limiter's next free slot at dispatch, read
 *     without spending budget; other tasks of the key dispatched meanwhile may move it)
 * @param duplicate whether a task with the same unique key existed ({@link Unique}): nothing was
 *     stored, and {@code taskId} names the existing task ({@code replaced} says whether it got the
 *     new payload)
 */
public record TaskReceipt(
    UUID taskId, Instant scheduledAt, boolean replaced, Instant estimatedStart, boolean duplicate) {

  /** A receipt of a task stored, or of a task key's QUEUED task replaced. */
  public TaskReceipt(UUID taskId, Instant scheduledAt, boolean replaced, Instant estimatedStart) {
    this(taskId, scheduledAt, replaced, estimatedStart, replaced);
  }

  /** A receipt whose task is expected to start when it is due. */
  public TaskReceipt(UUID taskId, Instant scheduledAt, boolean replaced) {
    this(taskId, scheduledAt, replaced, scheduledAt);
  }
}
