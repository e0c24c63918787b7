package io.taskgate.engine.run;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.CommitWait;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import io.taskgate.store.TaskWrite;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Writes what attempts do to the store: the claims of a batch (QUEUED → IN_PROGRESS) in one commit,
 * and the outcomes gathered so far in one commit (or one by one if that fails, so that a bad one
 * fails alone); then runs the outcomes' callbacks and hands each task back to the scheduler. While
 * a commit waits, the worker may start other tasks ({@link CommitTimeStarts}).
 */
@ApplicationScoped
public class OutcomeRecorder {
  private static final Logger LOG = Logger.getLogger(OutcomeRecorder.class.getName());

  private final TaskStore store;
  private final TaskScheduler scheduler;
  private final TaskQueues queues;
  private final Throttles throttles;
  private final RunningTasks running;
  private final InstantSource clock;
  private final Wakeups wakeups;
  private final Instances instances;

  /** For the CDI proxy. */
  protected OutcomeRecorder() {
    this(null, null, null, null, null, null, null, null);
  }

  @Inject
  OutcomeRecorder(
      TaskStore store,
      TaskScheduler scheduler,
      TaskQueues queues,
      Throttles throttles,
      RunningTasks running,
      InstantSource clock,
      Wakeups wakeups,
      Instances instances) {
    this.store = store;
    this.scheduler = scheduler;
    this.queues = queues;
    this.throttles = throttles;
    this.running = running;
    this.clock = clock;
    this.wakeups = wakeups;
    this.instances = instances;
  }

  /**
   * Claims the tasks (QUEUED → IN_PROGRESS) in one commit. Returns each claimed task, or null where
   * the claim was lost (the task changed since it was read: its follow-up is then added to {@code
   * outcomes}).
   */
  List<StoredTask> claim(
      List<Claim> claims, List<AttemptOutcome> outcomes, CommitTimeStarts helping) {
    if (claims.isEmpty()) {
      return List.of();
    }
    Instant now = clock.instant();
    List<TaskWrite> writes = new ArrayList<>(claims.size());
    for (Claim claim : claims) {
      StoredTask queued = claim.queued();
      writes.add(
          new TaskWrite.Update(
              queued,
              queued
                  .withStatus(TaskStatus.IN_PROGRESS)
                  .withAttempt(queued.attempt() + 1)
                  .withOwner(instances.self()),
              now));
    }
    List<Optional<StoredTask>> results = write(writes, helping);
    List<StoredTask> claimed = new ArrayList<>(claims.size());
    for (int i = 0; i < claims.size(); i++) {
      StoredTask claimedTask = results.get(i).orElse(null);
      claimed.add(claimedTask);
      if (claimedTask == null) {
        // Changed since we read it: re-dispatched with a new payload, cancelled, or taken.
        UUID id = claims.get(i).queued().id();
        wakeups.released(claims.get(i).permits().release(AttemptEnd.NOT_STARTED));
        outcomes.add(
            AttemptOutcome.nothing(
                id,
                now,
                store
                    .find(id)
                    .filter(t -> t.status() == TaskStatus.QUEUED)
                    .map(t -> new FollowUp(t.queue(), t.scheduledAt()))
                    .orElse(null)));
      }
    }
    return claimed;
  }

  /**
   * Stores the outcomes gathered so far (together, or one by one if that fails, so that a bad one
   * fails alone), then runs their callbacks and hands their tasks back to the scheduler; clears
   * {@code outcomes} and takes their tasks out of {@code open}.
   */
  void finish(List<AttemptOutcome> outcomes, Set<UUID> open, CommitTimeStarts helping) {
    if (outcomes.isEmpty()) {
      return;
    }
    List<AttemptOutcome> writing = new ArrayList<>();
    List<TaskWrite> writes = new ArrayList<>();
    for (AttemptOutcome outcome : outcomes) {
      if (outcome.writes()) {
        writing.add(outcome);
        writes.add(new TaskWrite.Update(outcome.expected(), outcome.changed(), outcome.at()));
      }
    }
    List<Optional<StoredTask>> stored = null;
    if (!writes.isEmpty()) {
      try {
        stored = write(writes, helping);
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "Storing " + writes.size() + " outcomes together failed", e);
      }
    }
    for (int i = 0; i < writing.size(); i++) {
      record(writing.get(i), stored == null ? null : stored.get(i));
    }
    for (AttemptOutcome outcome : outcomes) {
      if (outcome.afterStored() != null) {
        outcome.afterStored().run();
      }
      open.remove(outcome.taskId());
      running.doneExecuting(outcome.taskId());
      followUp(outcome);
    }
    outcomes.clear();
  }

  /**
   * Checks one outcome's write ({@code stored}: its result in the batch, null to write it alone).
   */
  private void record(AttemptOutcome outcome, Optional<StoredTask> stored) {
    boolean recorded;
    try {
      recorded =
          stored != null
              ? stored.isPresent()
              : store.update(outcome.expected(), outcome.changed(), outcome.at()).isPresent();
    } catch (RuntimeException e) {
      LOG.log(
          Level.SEVERE,
          "Task "
              + outcome.taskId()
              + ": its outcome "
              + outcome.changed().status()
              + " could not be stored",
          e);
      return;
    }
    if (!recorded) {
      LOG.warning(
          "Task "
              + outcome.taskId()
              + " changed while it ran; its outcome "
              + outcome.changed().status()
              + " was not recorded");
    }
  }

  /** Hands the task back to the scheduler: to its queue, its timeline, or held on its queue. */
  private void followUp(AttemptOutcome outcome) {
    FollowUp next = outcome.next();
    String woken = wakeups.takeWokenInFlight(outcome.taskId());
    if (woken != null) {
      // its resource was freed while its wait was being recorded: back to its queue now
      scheduler.cancelTimer(outcome.taskId());
      next = new FollowUp(woken, clock.instant());
    }
    if (next != null && next.due() == null) {
      queues.hold(next.queue(), outcome.taskId()); // still held by the scheduler
      return;
    }
    scheduler.release(outcome.taskId());
    if (next != null && next.redemption()) {
      // back at the gate a little before the slot, to be claimed ahead of it
      scheduler.redeemAt(next.queue(), outcome.taskId(), next.due().minus(throttles.claimAhead()));
    } else if (next != null) {
      scheduler.submit(next.queue(), outcome.taskId(), next.due());
    }
  }

  /** Writes {@code writes} together; while they commit, {@code helping} (if any) starts tasks. */
  private List<Optional<StoredTask>> write(List<TaskWrite> writes, CommitTimeStarts helping) {
    return store.writeAll(writes, helping == null ? CommitWait.PLAIN : helping.commitWait());
  }
}
