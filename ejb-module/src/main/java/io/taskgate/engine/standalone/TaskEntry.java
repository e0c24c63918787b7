package io.taskgate.engine.standalone;

import io.taskgate.api.Handler;
import io.taskgate.api.Recurrence;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskStatus;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.store.StoredTask;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** A task in the {@link StandaloneEngine}: what the store would hold, in memory. */
final class TaskEntry {
  final UUID id;
  final Task task;
  final HandlerInfo info;
  final Handler<Task> handler;
  final Recurrence recurrence;
  final Instant createdAt;
  TaskStatus status = TaskStatus.QUEUED;
  Instant scheduledAt;
  int attempt;
  long runs;
  Instant throttledUntil;
  String lastError;

  TaskEntry(
      UUID id,
      Task task,
      HandlerInfo info,
      Handler<Task> handler,
      Instant due,
      Recurrence recurrence,
      Instant createdAt) {
    this.id = id;
    this.task = task;
    this.info = info;
    this.handler = handler;
    this.scheduledAt = due;
    this.recurrence = recurrence;
    this.createdAt = createdAt;
  }

  /** The task as the store would hand it to its throttles. */
  StoredTask stored() {
    return StoredTask.queued(
            id,
            info.taskType().getName(),
            "{}",
            info.queue(),
            null,
            scheduledAt,
            recurrence == null ? null : recurrence.encode(),
            createdAt)
        .withAttempt(attempt)
        .withRuns(runs);
  }

  /** What its handler is told of its attempt. */
  TaskContext context() {
    return new TaskContext(
        id,
        info.taskType().getName(),
        info.queue(),
        Optional.empty(),
        attempt,
        info.retry().maxAttempts(),
        scheduledAt,
        runs,
        Optional.ofNullable(throttledUntil));
  }
}
