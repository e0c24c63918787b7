package io.taskgate.engine.throttle;

import io.taskgate.api.Task;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.store.StoredTask;
import java.util.Objects;

/**
 * An attempt as its throttles see it: the task as stored, its handler and its payload.
 *
 * @param task the stored task, QUEUED
 * @param handler its handler, with the throttling it declares
 * @param payload the task read from its payload
 * @param batch the worker's batch the attempt is part of (its tasks run one after another on that
 *     worker); null outside a worker's batch
 */
public record ThrottledAttempt(StoredTask task, HandlerInfo handler, Task payload, String batch) {
  public ThrottledAttempt {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(payload, "payload");
  }

  /** An attempt outside a worker's batch. */
  public ThrottledAttempt(StoredTask task, HandlerInfo handler, Task payload) {
    this(task, handler, payload, null);
  }
}
