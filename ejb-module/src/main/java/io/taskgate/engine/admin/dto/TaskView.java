package io.taskgate.engine.admin.dto;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.admin.TaskAdmin;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * One task as {@link TaskAdmin} shows it to the web module: what is stored, without the version.
 *
 * @param id the task's id
 * @param type the task type's full class name
 * @param status where it is in its life
 * @param queue the queue it runs on
 * @param taskKey its dispatch key, or null
 * @param scheduledAt when it is (or was last) due
 * @param attempt attempts started for the current run
 * @param lastError the last failure, or null
 * @param recurrence the recurrence ({@link io.taskgate.api.Recurrence#encode()}), or null
 * @param runs real executions so far (recurring tasks)
 * @param createdAt when it was stored
 * @param updatedAt when it last changed
 * @param payload the task as JSON
 * @param history its status changes, oldest first; null when not asked for (lists)
 * @param throttledUntil the rate-limit slot it is parked until (it stays QUEUED meanwhile); null
 *     when it is not parked
 * @param held whether it waits on its queue because the parking lot is full (rate-limited, it would
 *     be parked)
 * @param owner the instance that holds it (dispatched or last claimed it), or null for a task
 *     stored before instances were recorded
 * @param waitingFor the job throttler it waits for on this instance ({@code semaphore:newsletter}),
 *     or null
 * @param rateKey its rate-limit key (user data: escape it when rendering), or null for a task
 *     without one
 * @param paused the pause that holds it, a QUEUED task: its queue's, type's or key's ({@code queue
 *     emails}; user data), or null when none does
 */
public record TaskView(
    UUID id,
    String type,
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
    String payload,
    List<Change> history,
    Instant throttledUntil,
    boolean held,
    String owner,
    String waitingFor,
    String rateKey,
    String paused) {

  /**
   * One status change of a task.
   *
   * @param from the status before; null when the task was stored
   * @param to the status after
   * @param at when
   * @param attempt the attempt count after the change
   * @param detail the error or reason, or null
   */
  public record Change(TaskStatus from, TaskStatus to, Instant at, int attempt, String detail) {}

  /**
   * This view with its last error and the details of its history rewritten by {@code errors} (for a
   * reader who may not see them as stored).
   */
  public TaskView withErrors(java.util.function.UnaryOperator<String> errors) {
    return new TaskView(
        id,
        type,
        status,
        queue,
        taskKey,
        scheduledAt,
        attempt,
        errors.apply(lastError),
        recurrence,
        runs,
        createdAt,
        updatedAt,
        payload,
        changes(
            history,
            c -> new Change(c.from(), c.to(), c.at(), c.attempt(), errors.apply(c.detail()))),
        throttledUntil,
        held,
        owner,
        waitingFor,
        rateKey,
        paused);
  }

  /** The view of {@code task}, with {@code history} (null: without), neither parked nor held. */
  public static TaskView of(StoredTask task, List<TaskAudit> history) {
    return of(task, history, null, false, null, null);
  }

  /**
   * The view of {@code task}, with {@code history} (null: without) and its throttling: the slot it
   * is parked until, whether it is held, the job throttler it waits for, the pause that holds it.
   */
  public static TaskView of(
      StoredTask task,
      List<TaskAudit> history,
      Instant throttledUntil,
      boolean held,
      String waitingFor,
      String paused) {
    return new TaskView(
        task.id(),
        task.type(),
        task.status(),
        task.queue(),
        task.taskKey(),
        task.scheduledAt(),
        task.attempt(),
        task.lastError(),
        task.recurrence(),
        task.runs(),
        task.createdAt(),
        task.updatedAt(),
        task.payload(),
        changes(history, a -> new Change(a.from(), a.to(), a.at(), a.attempt(), a.detail())),
        throttledUntil,
        held,
        task.owner(),
        waitingFor,
        task.rateKey(),
        paused);
  }

  /**
   * Each of {@code history} as {@code change} makes it a change; null (not asked for) stays null.
   */
  private static <T> List<Change> changes(List<T> history, Function<T, Change> change) {
    return history == null ? null : history.stream().map(change).toList();
  }
}
