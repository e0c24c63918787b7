package io.taskgate.engine.run;

import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.TaskThrottledException;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerInvoker;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.ResourceWaiters;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Gets tasks ready to be claimed and places them once claimed: reads a task (or takes the
 * dispatcher's copy, or the one a throttle keeps while it waits), checks that it can run now, finds
 * its handler and payload, and passes it through its throttles ({@link Throttles#chainOf}); once
 * the batch's claims are committed, a task claimed ahead of its slot waits for it on the timeline.
 * Also takes back a task claimed ahead that is cancelled before it starts.
 */
@ApplicationScoped
public class TaskClaimer {
  private static final Logger LOG = Logger.getLogger(TaskClaimer.class.getName());

  @Inject TaskStore store;
  @Inject HandlerRegistry registry;
  @Inject Payloads payloads;
  @Inject TaskScheduler scheduler;
  @Inject InstantSource clock;
  @Inject Throttles throttles;
  @Inject RunningTasks running;
  @Inject HandlerInvoker invoker;

  @Inject SharedPermits shared;
  @Inject Ticker ticker;
  private ResourceWaiters waiters;
  private final Map<UUID, String> wokenInFlight = new ConcurrentHashMap<>();

  @PostConstruct
  void listen() {
    waiters = throttles.waiters();
    throttles.onFreed(this::released);
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
    RunningTasks.Executing already = running.executingNow(taskId);
    if (queued != null
        && queued.status() == TaskStatus.IN_PROGRESS
        && already != null
        && already.worker() != Thread.currentThread()) {
      // delivered again while it runs here (a recovery race): never run twice at once, never
      // dropped; once that attempt is stored, this delivery finds out what is left to do
      Duration delay = RunningTasks.redeliveryDelay(ticker.nanos() - already.sinceNanos());
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
    long releasesSeen = waiters.releases();
    ThrottleChain.Admission admission =
        throttles
            .chainOf(handlerInfo)
            .acquire(new ThrottledAttempt(queued, handlerInfo, task, batch), now);
    if (admission instanceof ThrottleChain.Admission.Refused refused) {
      released(refused.freed());
      outcomes.add(instead(queued, handlerInfo, task, refused.decision(), releasesSeen, now));
      return null;
    }
    ThrottleChain.Admission.Admitted admitted = (ThrottleChain.Admission.Admitted) admission;
    return new Claim(queued, handlerInfo, task, admitted.startAt(), admitted.permits());
  }

  /**
   * What happens to a task a throttle did not let run now: parked until a slot, held on its queue,
   * waiting for a resource, an occurrence skipped, or rejected (a one-shot task FAILS, its {@code
   * onError} told; a recurring one skips ahead to the slot).
   */
  private AttemptOutcome instead(
      StoredTask queued,
      HandlerInfo handlerInfo,
      Task task,
      ThrottleDecision decision,
      long releasesSeen,
      Instant now) {
    if (decision instanceof ThrottleDecision.ParkUntil park) {
      return AttemptOutcome.nothing(
          queued.id(), now, new FollowUp(queued.queue(), park.until(), true));
    }
    if (decision instanceof ThrottleDecision.RetryAt retry) {
      return AttemptOutcome.nothing(queued.id(), now, new FollowUp(queued.queue(), retry.at()));
    }
    if (decision instanceof ThrottleDecision.HoldOnQueue) {
      return AttemptOutcome.nothing(queued.id(), now, new FollowUp(queued.queue(), null));
    }
    if (decision instanceof ThrottleDecision.WaitForRelease wait) {
      boolean waits =
          waiters.waitFor(
              wait.resource(),
              new ResourceWaiters.Waiter(queued.id(), queued.queue(), queued),
              releasesSeen);
      // not waiting: a release came meanwhile, so it tries again at once; waiting: it looks again
      // by itself at the recheck time, if there is one, keeping its place in the line
      Instant next = waits ? wait.recheckAt() : now;
      return AttemptOutcome.nothing(
          queued.id(), now, next == null ? null : new FollowUp(queued.queue(), next));
    }
    if (decision instanceof ThrottleDecision.Drop drop) {
      TaskContext context = HandlerInvoker.context(queued, handlerInfo, null);
      TaskThrottledException cause = new TaskThrottledException(drop.throttle(), drop.reason());
      return Outcomes.ended(
          queued,
          TaskStatus.CANCELLED,
          drop.reason(),
          now,
          () ->
              invoker.withHandler(
                  queued, handlerInfo, "onError", h -> h.onError(task, context, cause)));
    }
    if (decision instanceof ThrottleDecision.SkipOccurrence skip) {
      return Outcomes.skipped(queued, skip.notBefore(), now, skip.reason());
    }
    ThrottleDecision.Reject reject = (ThrottleDecision.Reject) decision;
    if (queued.recurrence() != null) {
      return Outcomes.skipped(
          queued, reject.slot() == null ? now : reject.slot(), now, reject.reason());
    }
    TaskContext context = HandlerInvoker.context(queued, handlerInfo, null);
    return Outcomes.ended(
        queued,
        TaskStatus.FAILED,
        reject.reason(),
        now,
        () ->
            invoker.withHandler(
                queued, handlerInfo, "onError", h -> h.onError(task, context, reject.cause())));
  }

  /**
   * Throttles freed {@code resources}: the first task waiting for each goes back to its queue; or,
   * for a semaphore whose tasks share a permit per batch, freed by a queue's worker, the first
   * waiters of that queue run next on that worker ({@link HandOff}).
   */
  void released(Set<String> resources) {
    HandOff handOff = HandOff.current();
    for (String resource : resources) {
      if (shared.handsOver(handOff, resource)) {
        shared.handOver(waiters, resource, handOff).forEach(this::wake);
      } else {
        // a mutex's next task starts at once on another worker, not after this worker's commit
        waiters.released(resource).ifPresent(this::wake);
      }
    }
  }

  /**
   * A waiter goes back to its queue now: its recheck timer, if any, is dropped; if a worker still
   * has it (its wait is being recorded), its follow-up submits it instead ({@link
   * #takeWokenInFlight}).
   */
  private void wake(ResourceWaiters.Waiter waiter) {
    if (waiter.task() != null) {
      running.justStored(waiter.task()); // read once: its claim compares against this copy
    }
    scheduler.cancelTimer(waiter.taskId());
    if (!scheduler.submit(waiter.queue(), waiter.taskId(), clock.instant())) {
      wokenInFlight.put(waiter.taskId(), waiter.queue());
    }
  }

  /**
   * The queue of a task woken while the engine still held it (between its throttle's answer and its
   * follow-up), which must now go back to it at once; null if it was not.
   */
  String takeWokenInFlight(UUID taskId) {
    return wokenInFlight.isEmpty() ? null : wokenInFlight.remove(taskId);
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

  /**
   * Marks the claimed tasks as executing here; those claimed for a slot still ahead wait for it on
   * the timeline ({@link #waitOnTimeline}) and are added to {@code waiting}, and their entry in
   * {@code claimed} is cleared: what is left starts now.
   */
  void placeClaimed(List<Claim> claims, List<StoredTask> claimed, Set<UUID> waiting) {
    Instant claimedAt = clock.instant();
    for (int i = 0; i < claims.size(); i++) {
      StoredTask claimedTask = claimed.get(i);
      if (claimedTask == null) {
        continue;
      }
      running.executing(claimedTask.id());
      Instant startAt = claims.get(i).startAt();
      if (startAt == null) {
        continue;
      }
      // claimed for its slot: the slot is this task's now, nothing redeems it again
      Claim claim = claims.get(i);
      claim.permits().claimedAhead(claimedTask.id());
      if (startAt.isAfter(claimedAt)) {
        waiting.add(claimedTask.id());
        waitOnTimeline(claimedTask, claim, startAt, false);
        claimed.set(i, null);
      } else {
        claim.permits().leftWaiting(claimedTask.id()); // the claim took longer than the lead
      }
    }
  }

  /**
   * A claimed task waits on the timeline until {@code at} (its reserved slot, or, {@code held} for
   * spacing, when it may start), then for a worker of its queue's due lane ({@link #runAll} starts
   * it without another claim).
   */
  void waitOnTimeline(StoredTask claimed, Claim claim, Instant at, boolean held) {
    UUID id = claimed.id();
    running.claimedAhead(id, new RunningTasks.Ready(claimed, claim, held));
    scheduler.release(id);
    scheduler.startAt(claimed.queue(), id, at);
  }

  /**
   * Cancels a task claimed ahead of its rate-limit slot that has not started yet (IN_PROGRESS →
   * CANCELLED, its attempt not counted): it never runs. If its claim is being committed right now,
   * this waits for it first (at most {@link RunningTasks#CLAIMING_WAIT}). Returns false if it is
   * not such a task (it has started, or was not claimed ahead here); if the cancel cannot be
   * stored, the task starts at its slot as planned; if its row changed meanwhile, the claim is no
   * longer this runner's and the task does not start here.
   */
  public boolean cancelClaimed(UUID taskId) {
    if (!running.awaitClaim(taskId)) {
      return false;
    }
    RunningTasks.Ready ready = running.takeClaimedAhead(taskId);
    if (ready == null) {
      return false;
    }
    StoredTask claimed = ready.running();
    Optional<StoredTask> cancelled;
    try {
      cancelled =
          store.update(
              claimed,
              claimed.withStatus(TaskStatus.CANCELLED).withAttempt(claimed.attempt() - 1),
              clock.instant());
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Task " + taskId + " could not be cancelled; it starts at its slot as planned",
          e);
      running.claimedAhead(taskId, ready); // a delivery meanwhile is re-parked while it executes
      return false;
    }
    scheduler.cancelTimer(taskId);
    ready.claim().permits().leftWaiting(taskId);
    running.notExecuting(taskId);
    released(ready.claim().permits().release(AttemptEnd.CANCELLED));
    return cancelled.isPresent();
  }
}
