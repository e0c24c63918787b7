package io.taskgate.store;

import io.taskgate.api.TaskStatus;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One stored task, as the store hands it out: an immutable snapshot. Change it with the {@code
 * with…} methods and {@link TaskStore#update}.
 *
 * @param id the task's identity, chosen at dispatch
 * @param type the task type's name (its class name)
 * @param payload the task as JSON
 * @param status where the task is in its life
 * @param queue the queue it runs on
 * @param taskKey the dispatch identity, or null
 * @param scheduledAt when it is due: the dispatch time for "now", later for a delay, the next
 *     occurrence for a recurring task, the next attempt's time for a retry
 * @param attempt attempts started so far for the current run (0 before the first)
 * @param lastError the last failure (class and message), or null
 * @param recurrence the recurrence in {@link io.taskgate.api.Recurrence#encode()} form, or null for
 *     a one-shot task
 * @param runs real executions so far (recurring tasks)
 * @param createdAt when it was first stored
 * @param updatedAt when it last changed
 * @param version the optimistic-lock version, set by the store
 * @param owner the engine instance that holds the task (dispatched it, claimed it, or took it over
 *     from a dead one), or null for none
 * @param rateKey the task's rate-limit key as its type's gate keys it, set at dispatch; null for a
 *     task without one (its type is not rate-limited, or it has no key), or stored before keys were
 * @param traceParent the trace context of the code that dispatched it, as a W3C {@code traceparent}
 *     header value, or null when tracing was off (or it was stored before traces were); its
 *     attempts are spans in that trace
 */
public record StoredTask(
    UUID id,
    String type,
    String payload,
    TaskStatus status,
    String queue,
    String taskKey,
    Instant scheduledAt,
    int attempt,
    String lastError,
    String recurrence,
    long runs,
    Instant createdAt,
    Instant updatedAt,
    long version,
    String owner,
    String rateKey,
    String traceParent) {

  /** Checks the fields that must be present. */
  public StoredTask {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(scheduledAt, "scheduledAt");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  /** A new QUEUED task, version 0. */
  public static StoredTask queued(
      UUID id,
      String type,
      String payload,
      String queue,
      String taskKey,
      Instant scheduledAt,
      String recurrence,
      Instant now) {
    return new StoredTask(
        id,
        type,
        payload,
        TaskStatus.QUEUED,
        queue,
        taskKey,
        scheduledAt,
        0,
        null,
        recurrence,
        0,
        now,
        now,
        0,
        null,
        null,
        null);
  }

  /** This task with its rate-limit key. */
  public StoredTask withRateKey(String rateKey) {
    return copy(draft -> draft.rateKey = rateKey);
  }

  /** This task carrying the trace context {@code traceParent} (a W3C traceparent, or null). */
  public StoredTask withTraceParent(String traceParent) {
    return copy(draft -> draft.traceParent = traceParent);
  }

  /** This task with another status. */
  public StoredTask withStatus(TaskStatus status) {
    return copy(draft -> draft.status = status);
  }

  /** This task with another payload. */
  public StoredTask withPayload(String payload) {
    return copy(draft -> draft.payload = payload);
  }

  /** This task due at another time. */
  public StoredTask withScheduledAt(Instant scheduledAt) {
    return copy(draft -> draft.scheduledAt = scheduledAt);
  }

  /** This task with another attempt count. */
  public StoredTask withAttempt(int attempt) {
    return copy(draft -> draft.attempt = attempt);
  }

  /** This task with another last error. */
  public StoredTask withLastError(String lastError) {
    return copy(draft -> draft.lastError = lastError);
  }

  /** This task with another run count. */
  public StoredTask withRuns(long runs) {
    return copy(draft -> draft.runs = runs);
  }

  /** This task held by another instance ({@code owner}), or by none (null). */
  public StoredTask withOwner(String owner) {
    return copy(draft -> draft.owner = owner);
  }

  /** This task with the changes {@code change} makes to a draft of it. */
  private StoredTask copy(Consumer<Draft> change) {
    Draft draft = new Draft(this);
    change.accept(draft);
    return draft.task();
  }

  /**
   * A task's fields as the {@code with…} methods copy them, open to change before {@link #task()}.
   */
  private static final class Draft {
    private UUID id;
    private String type;
    private String payload;
    private TaskStatus status;
    private String queue;
    private String taskKey;
    private Instant scheduledAt;
    private int attempt;
    private String lastError;
    private String recurrence;
    private long runs;
    private Instant createdAt;
    private Instant updatedAt;
    private long version;
    private String owner;
    private String rateKey;
    private String traceParent;

    Draft(StoredTask task) {
      id = task.id;
      type = task.type;
      payload = task.payload;
      status = task.status;
      queue = task.queue;
      taskKey = task.taskKey;
      scheduledAt = task.scheduledAt;
      attempt = task.attempt;
      lastError = task.lastError;
      recurrence = task.recurrence;
      runs = task.runs;
      createdAt = task.createdAt;
      updatedAt = task.updatedAt;
      version = task.version;
      owner = task.owner;
      rateKey = task.rateKey;
      traceParent = task.traceParent;
    }

    StoredTask task() {
      return new StoredTask(
          id,
          type,
          payload,
          status,
          queue,
          taskKey,
          scheduledAt,
          attempt,
          lastError,
          recurrence,
          runs,
          createdAt,
          updatedAt,
          version,
          owner,
          rateKey,
          traceParent);
    }
  }
}
