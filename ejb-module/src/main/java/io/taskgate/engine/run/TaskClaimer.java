package io.taskgate.engine.run;

import io.taskgate.api.Task;
import io.taskgate.api.TaskStatus;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerInvoker;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.engine.trace.TaskTracing;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Gets tasks ready to be claimed: reads a task (or takes the dispatcher's copy, or the one a
 * throttle keeps while it waits), checks that it can run now, finds its handler and payload, and
 * passes it through its throttles ({@link Throttles#chainOf}); what a refusal makes of it is {@link
 * Refusals}' business, a task claimed ahead of its slot {@link ClaimsAhead}'.
 */
@ApplicationScoped
public class TaskClaimer {
  private static final Logger LOG = Logger.getLogger(TaskClaimer.class.getName());

  private final TaskStore store;
  private final HandlerRegistry registry;
  private final Payloads payloads;
  private final Throttles throttles;
  private final RunningTasks running;
  private final Refusals refusals;
  private final Wakeups wakeups;
  private final TaskTracing tracing;

  /** For the CDI proxy. */
  protected TaskClaimer() {
    this(null, null, null, null, null, null, null, null);
  }

  @Inject
  TaskClaimer(
      TaskStore store,
      HandlerRegistry registry,
      Payloads payloads,
      Throttles throttles,
      RunningTasks running,
      Refusals refusals,
      Wakeups wakeups,
      TaskTracing tracing) {
    this.store = store;
    this.registry = registry;
    this.payloads = payloads;
    this.throttles = throttles;
    this.running = running;
    this.refusals = refusals;
    this.wakeups = wakeups;
    this.tracing = tracing;
  }

  /**
   * Reads the task (or takes the dispatcher's copy) and checks it can run now; an outcome instead
   * when it cannot (not queued, not due, no handler, unreadable payload, or the gate says not now).
   */
  Claim prepare(
      UUID taskId,
      Instant now,
      List<AttemptOutcome> outcomes,
      Map<UUID, StoredTask> read,
      String batch) {
    StoredTask hint = running.takeJustStored(taskId);
    if (hint == null) {
      hint = throttles.waitingCopy(taskId);
    }
    if (hint == null) {
      hint = read.get(taskId);
    }
    StoredTask queued =
        hint != null || read.containsKey(taskId) ? hint : store.find(taskId).orElse(null);
    Duration delay =
        queued != null && queued.status() == TaskStatus.IN_PROGRESS
            ? running.redeliveredWhileRunning(taskId)
            : null;
    if (delay != null) {
      // delivered again while it runs here (a recovery race): never run twice at once, never
      // dropped; once that attempt is stored, this delivery finds out what is left to do
      LOG.fine(
          () -> "Task " + taskId + " was delivered again while it runs; re-parked for " + delay);
      outcomes.add(
          AttemptOutcome.nothing(taskId, now, new FollowUp(queued.queue(), now.plus(delay))));
      return null;
    }
    if (queued == null || queued.status() != TaskStatus.QUEUED) {
      outcomes.add(AttemptOutcome.nothing(taskId, now, null));
      return null;
    }
    if (queued.scheduledAt().isAfter(now)) {
      outcomes.add(
          AttemptOutcome.nothing(taskId, now, new FollowUp(queued.queue(), queued.scheduledAt())));
      return null;
    }
    HandlerInfo handlerInfo = registry.find(queued.type()).orElse(null);
    if (handlerInfo == null) {
      outcomes.add(
          Outcomes.unrunnable(
              queued, "no handler in this application runs task type " + queued.type(), now));
      return null;
    }
    Task task;
    try {
      task = payloads.read(queued.payload(), handlerInfo.taskType());
    } catch (RuntimeException e) {
      outcomes.add(
          Outcomes.unrunnable(
              queued,
              "its payload cannot be read as " + queued.type() + ": " + HandlerInvoker.describe(e),
              now));
      return null;
    }
    long releasesSeen = throttles.waiters().releases();
    ThrottleChain.Admission admission =
        throttles
            .chainOf(handlerInfo)
            .acquire(new ThrottledAttempt(queued, handlerInfo, task, batch), now);
    if (admission instanceof ThrottleChain.Admission.Refused refused) {
      tracing.refused(queued, refused.by(), refused.decision(), now);
      wakeups.released(refused.freed());
      outcomes.add(
          refusals.instead(queued, handlerInfo, task, refused.decision(), releasesSeen, now));
      return null;
    }
    ThrottleChain.Admission.Admitted admitted = (ThrottleChain.Admission.Admitted) admission;
    if (admitted.startAt() != null) {
      tracing.heldUntil(queued, admitted.startAt(), "claimed ahead of its reserved slot", now);
    }
    return new Claim(queued, handlerInfo, task, admitted.startAt(), admitted.permits());
  }

  /**
   * The batch's tasks that neither the dispatcher nor a throttle holds a copy of (tasks that were
   * scheduled for later, recovered or swept), read together: an id mapped to null does not exist.
   * Empty when there are fewer than two to read.
   */
  Map<UUID, StoredTask> readUnknown(List<UUID> taskIds) {
    List<UUID> unknown = new ArrayList<>();
    for (UUID id : taskIds) {
      if (!running.isJustStored(id) && throttles.waitingCopy(id) == null) {
        unknown.add(id);
      }
    }
    if (unknown.size() < 2) {
      return Map.of();
    }
    Map<UUID, StoredTask> read = new HashMap<>();
    unknown.forEach(id -> read.put(id, null));
    for (StoredTask task : store.findAll(unknown)) {
      read.put(task.id(), task);
    }
    return read;
  }
}
