package io.taskgate.engine.dispatch;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Recurrence;
import io.taskgate.api.Task;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskNotFoundException;
import io.taskgate.api.TaskNotRequeueableException;
import io.taskgate.api.TaskReceipt;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.UniquePolicy;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.run.ClaimsAhead;
import io.taskgate.engine.run.RunningTasks;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.engine.trace.TaskTracing;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import io.taskgate.store.TaskWrite;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@link TaskDispatcher}: checks the task and its options ({@link TaskValidation}, {@link
 * DispatchLimits}), stores it, then hands it to the scheduler. A task or option it refuses stores
 * nothing.
 */
@ApplicationScoped
public class DefaultTaskDispatcher implements TaskDispatcher {
  private static final int REPLACE_TRIES = 5;

  private final TaskStore store;
  private final HandlerRegistry registry;
  private final Payloads payloads;
  private final TaskQueues queues;
  private final TaskScheduler scheduler;
  private final ClaimsAhead claimsAhead;
  private final Throttles throttles;
  private final RunningTasks running;
  private final InstantSource clock;
  private final TaskValidation validation;
  private final DispatchLimits limits;
  private final Instances instances;
  private final UniqueTasks uniques;
  private final TaskTracing tracing;

  /** For the CDI proxy. */
  protected DefaultTaskDispatcher() {
    this(null, null, null, null, null, null, null, null, null, null, null, null, null);
  }

  @Inject
  DefaultTaskDispatcher(
      TaskStore store,
      HandlerRegistry registry,
      Payloads payloads,
      TaskQueues queues,
      TaskScheduler scheduler,
      ClaimsAhead claimsAhead,
      Throttles throttles,
      RunningTasks running,
      InstantSource clock,
      TaskValidation validation,
      DispatchLimits limits,
      Instances instances,
      TaskTracing tracing) {
    this.store = store;
    this.registry = registry;
    this.payloads = payloads;
    this.queues = queues;
    this.scheduler = scheduler;
    this.claimsAhead = claimsAhead;
    this.throttles = throttles;
    this.running = running;
    this.clock = clock;
    this.validation = validation;
    this.limits = limits;
    this.instances = instances;
    this.uniques = new UniqueTasks(store, throttles);
    this.tracing = tracing;
  }

  @Override
  public TaskReceipt dispatch(Task task, DispatchOptions options) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(options, "options");
    Instant now = clock.instant();
    Instant due = options.dueAt(now);
    return store(task, options, due, null, now);
  }

  @Override
  public List<TaskReceipt> dispatchAll(List<? extends Task> tasks, DispatchOptions options) {
    Objects.requireNonNull(tasks, "tasks");
    Objects.requireNonNull(options, "options");
    if (options.taskKey().isPresent()) {
      throw new IllegalArgumentException(
          "dispatchAll cannot take a taskKey ("
              + options.taskKey().get()
              + "): a task key"
              + " identifies one task; dispatch keyed tasks one by one");
    }
    if (options.unique().isPresent()) {
      throw new IllegalArgumentException(
          "dispatchAll cannot take a unique policy: a unique task is stored alone, its key"
              + " locked while it is; dispatch unique tasks one by one");
    }
    Instant now = clock.instant();
    Instant due = options.dueAt(now);
    String type = tasks.isEmpty() || tasks.get(0) == null ? "" : tasks.get(0).getClass().getName();
    TaskTracing.Dispatch traced = tracing.dispatching(type, tasks.size());
    try {
      List<TaskReceipt> receipts = storeAll(tasks, options, due, now, traced.traceParent());
      traced.stored(receipts.isEmpty() ? null : receipts.get(0).taskId(), null, false);
      return receipts;
    } catch (RuntimeException e) {
      traced.failed(e);
      throw e;
    }
  }

  private List<TaskReceipt> storeAll(
      List<? extends Task> tasks,
      DispatchOptions options,
      Instant due,
      Instant now,
      String traceParent) {
    List<StoredTask> queued = new ArrayList<>(tasks.size());
    List<Instant> estimates = new ArrayList<>(tasks.size());
    List<TaskWrite> inserts = new ArrayList<>(tasks.size());
    for (int i = 0; i < tasks.size(); i++) {
      Task task = Objects.requireNonNull(tasks.get(i), "tasks[" + i + "]");
      HandlerInfo handler = registry.require(task.getClass());
      if (uniques.declared(handler)) {
        throw new IllegalArgumentException(
            "dispatchAll cannot take tasks["
                + i
                + "] of type "
                + handler.typeName()
                + ": its handler is @Unique, and a unique task is stored alone; dispatch it on its"
                + " own");
      }
      validation.check(task, "tasks[" + i + "]");
      TaskValidation.checkThrottlers(task, handler, "tasks[" + i + "]");
      throttles.check(handler, task, "tasks[" + i + "]");
      String payload = payloads.write(task);
      limits.checkPayload(handler.typeName(), payload);
      String queue = queues.resolve(options.queue().orElse(handler.queue()));
      String rateKey = throttles.keyOf(handler, task);
      StoredTask stored =
          StoredTask.queued(
                  UUID.randomUUID(), handler.typeName(), payload, queue, null, due, null, now)
              .withOwner(instances.self())
              .withRateKey(rateKey)
              .withTraceParent(traceParent);
      queued.add(stored);
      estimates.add(throttles.estimatedStart(handler, rateKey, due, now));
      inserts.add(new TaskWrite.Insert(stored));
    }
    holdAll(queued);
    try {
      store.writeAll(inserts);
    } catch (RuntimeException e) {
      queued.forEach(t -> scheduler.release(t.id()));
      throw e;
    }
    List<TaskReceipt> receipts = new ArrayList<>(queued.size());
    RuntimeException firstFailure = null;
    for (int i = 0; i < queued.size(); i++) {
      StoredTask stored = queued.get(i);
      try {
        handOver(stored, due, now);
      } catch (RuntimeException e) {
        // stored all the same: the sweep brings it to its queue; the others go on
        if (firstFailure == null) {
          firstFailure = e;
        }
      }
      receipts.add(new TaskReceipt(stored.id(), due, false, estimates.get(i)));
    }
    if (firstFailure != null) {
      throw firstFailure;
    }
    return List.copyOf(receipts);
  }

  @Override
  public TaskReceipt schedule(Task task, Recurrence recurrence, DispatchOptions options) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(recurrence, "recurrence");
    Objects.requireNonNull(options, "options");
    if (options.delay().isPresent() || options.at().isPresent()) {
      throw new IllegalArgumentException(
          "A recurring task takes its times from its recurrence: give the first time with"
              + " Recurrence.withStartAt instead of a delay or an instant");
    }
    Instant now = clock.instant();
    Instant first = DispatchLimits.firstOccurrence(recurrence, now);
    limits.warnIfFasterThanItsRate(registry.require(task.getClass()), recurrence, first);
    return store(task, options, first, recurrence.encode(), now);
  }

  @Override
  public boolean cancel(UUID taskId) {
    return cancel(taskId, null);
  }

  /**
   * Cancels a task that has not started, recording {@code reason} (who cancelled it, and how) as
   * its last error and in its audit.
   *
   * @param reason why, or null for none
   * @return true if it is cancelled now
   */
  public boolean cancel(UUID taskId, String reason) {
    for (int i = 0; i < REPLACE_TRIES; i++) {
      StoredTask task = store.find(taskId).orElse(null);
      if (task != null && task.status() == TaskStatus.IN_PROGRESS) {
        // claimed shortly before its rate-limit slot, perhaps, and not started yet
        return claimsAhead.cancelClaimed(taskId);
      }
      if (task == null || task.status() != TaskStatus.QUEUED) {
        return false;
      }
      StoredTask cancelled = task.withStatus(TaskStatus.CANCELLED);
      cancelled = reason == null ? cancelled : cancelled.withLastError(reason);
      if (store.update(task, cancelled, clock.instant()).isPresent()) {
        scheduler.cancelTimer(taskId);
        throttles.cancelled(taskId);
        return true;
      }
    }
    return false;
  }

  /**
   * Queues a FAILED or CANCELLED task again, due now, for a new series of attempts of the same
   * task: its id, payload, keys and history stay, its attempts count from 0 again, and {@code
   * reason} (who requeued it, and how) goes into its audit with the error it had.
   *
   * @return the task, QUEUED again
   * @throws TaskNotFoundException if no task has this id
   * @throws TaskNotRequeueableException if it is not FAILED or CANCELLED, if no handler runs its
   *     type, or if another task with its task key is queued or running
   */
  public StoredTask requeue(UUID taskId, String reason) {
    Objects.requireNonNull(reason, "reason");
    for (int i = 0; i < REPLACE_TRIES; i++) {
      StoredTask task = store.find(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
      if (task.status() != TaskStatus.FAILED && task.status() != TaskStatus.CANCELLED) {
        throw new TaskNotRequeueableException(
            taskId, task.status(), "it is " + task.status() + ", not FAILED or CANCELLED");
      }
      if (registry.find(task.type()).isEmpty()) {
        throw new TaskNotRequeueableException(
            taskId, task.status(), "no handler runs its type " + task.type() + " any more");
      }
      if (task.taskKey() != null) {
        Optional<StoredTask> live = store.findLive(task.type(), task.taskKey());
        if (live.isPresent() && !live.get().id().equals(taskId)) {
          throw new TaskNotRequeueableException(
              taskId,
              task.status(),
              "task "
                  + live.get().id()
                  + " with its task key "
                  + task.taskKey()
                  + " is "
                  + live.get().status());
        }
      }
      Instant now = clock.instant();
      StoredTask again =
          task.withStatus(TaskStatus.QUEUED)
              .withAttempt(0)
              .withScheduledAt(now)
              .withOwner(instances.self())
              .withLastError(
                  task.lastError() == null
                      ? reason
                      : reason + "; it had " + task.status() + ": " + task.lastError());
      scheduler.hold(taskId); // until handOver
      Optional<StoredTask> queued;
      try {
        queued = store.update(task, again, now);
      } catch (RuntimeException e) {
        scheduler.release(taskId);
        throw e;
      }
      if (queued.isPresent()) {
        handOver(queued.get(), now, now);
        return queued.get();
      }
      scheduler.release(taskId); // changed meanwhile: read it again
    }
    throw new TaskNotRequeueableException(
        taskId, null, "it kept changing while it was being queued again; try again");
  }

  /** Stores a task (see {@link #storeOne}) in a dispatch span when tracing is on. */
  private TaskReceipt store(
      Task task, DispatchOptions options, Instant due, String recurrence, Instant now) {
    TaskTracing.Dispatch traced = tracing.dispatching(task.getClass().getName(), 1);
    try {
      return storeOne(task, options, due, recurrence, now, traced);
    } catch (RuntimeException e) {
      traced.failed(e);
      throw e;
    }
  }

  private TaskReceipt storeOne(
      Task task,
      DispatchOptions options,
      Instant due,
      String recurrence,
      Instant now,
      TaskTracing.Dispatch traced) {
    HandlerInfo handler = registry.require(task.getClass());
    validation.check(task, null);
    TaskValidation.checkThrottlers(task, handler, null);
    throttles.check(handler, task, null);
    String payload = payloads.write(task);
    limits.checkPayload(handler.typeName(), payload);
    String queue = queues.resolve(options.queue().orElse(handler.queue()));
    String rateKey = throttles.keyOf(handler, task);
    Optional<UniquePolicy> unique = uniques.policy(handler, options);
    String taskKey =
        unique.isPresent()
            ? UniqueTasks.key(options.taskKey(), payload)
            : options.taskKey().orElse(null);
    UUID id = UUID.randomUUID();
    StoredTask queued =
        StoredTask.queued(id, handler.typeName(), payload, queue, taskKey, due, recurrence, now)
            .withOwner(instances.self()) // held here: its timer or channel is this instance's
            .withRateKey(rateKey)
            .withTraceParent(traced.traceParent());
    // before a worker can take it: later than due only when its key has no budget
    Instant estimate = throttles.estimatedStart(handler, rateKey, due, now);
    scheduler.hold(id); // until handOver (see holdAll)
    try {
      if (unique.isEmpty()) {
        store.insert(queued);
      } else {
        Optional<TaskReceipt> existing = uniques.insert(queued, unique.get(), now);
        if (existing.isPresent()) {
          scheduler.release(id);
          traced.stored(existing.get().taskId(), queue, true);
          return existing.get();
        }
      }
    } catch (RuntimeException e) {
      scheduler.release(id);
      throw e;
    }
    handOver(queued, due, now);
    traced.stored(id, queue, false);
    return new TaskReceipt(id, due, false, estimate);
  }

  /**
   * Holds the tasks about to be stored in the scheduler until {@link #handOver}: the sweep, which
   * reads the store meanwhile (a large dispatch waits for room on its queue), leaves them to the
   * dispatcher. Taken by the sweep first, a task could run to its end before the dispatcher handed
   * it over again with its first copy, which the next attempt would take as it was (parking it
   * again, for ever, in the parking lot).
   */
  private void holdAll(List<StoredTask> tasks) {
    for (StoredTask task : tasks) {
      scheduler.hold(task.id()); // a new id: nothing else holds it
    }
  }

  /** Hands a task just stored, and held since before it was, to the scheduler. */
  private void handOver(StoredTask queued, Instant due, Instant now) {
    boolean dueNow = !due.isAfter(now);
    if (dueNow) {
      running.justStored(queued); // its first attempt claims it without reading it back
    }
    try {
      scheduler.submitHeld(queued.queue(), queued.id(), due);
    } catch (RuntimeException e) {
      running.forget(queued.id());
      throw e;
    }
  }
}
