package io.taskgate.store;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * Where a queued task waits, and since when it is due: all the sweep needs to hand it to its queue,
 * without reading its payload.
 *
 * @param id the task
 * @param queue its queue
 * @param scheduledAt when it became due
 * @param recurring whether it is an occurrence of a recurring series
 * @param owner the instance that holds it (see {@link StoredTask#owner}), or null
 */
public record DueTask(UUID id, String queue, Instant scheduledAt, boolean recurring, String owner) {
  public DueTask {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(scheduledAt, "scheduledAt");
  }

  /** A task that is not recurring and has no owner. */
  public DueTask(UUID id, String queue, Instant scheduledAt) {
    this(id, queue, scheduledAt, false, null);
  }
}
