package io.taskgate.engine.run;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.StartCheck;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The tasks claimed ahead of the slot a throttle reserved for them (or held back at their start):
 * placed on the timeline once their claim is committed, holding no worker, and started there by a
 * worker of their queue's due lane; one cancelled before it starts never runs.
 */
@ApplicationScoped
public class ClaimsAhead {
  private static final Logger LOG = Logger.getLogger(ClaimsAhead.class.getName());

  private final TaskStore store;
  private final TaskScheduler scheduler;
  private final InstantSource clock;
  private final RunningTasks running;
  private final Wakeups wakeups;

  /** For the CDI proxy. */
  protected ClaimsAhead() {
    this(null, null, null, null, null);
  }

  @Inject
  ClaimsAhead(
      TaskStore store,
      TaskScheduler scheduler,
      InstantSource clock,
      RunningTasks running,
      Wakeups wakeups) {
    this.store = store;
    this.scheduler = scheduler;
    this.clock = clock;
    this.running = running;
    this.wakeups = wakeups;
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
        waitOnTimeline(claimedTask, claim, startAt, null);
        claimed.set(i, null);
      } else {
        claim.permits().leftWaiting(claimedTask.id()); // the claim took longer than the lead
      }
    }
  }

  /**
   * A claimed task waits on the timeline until {@code at} (its reserved slot, or, {@code held} back
   * for spacing, when it may start), then for a worker of its queue's due lane ({@link
   * AttemptRunner#runAll} starts it without another claim).
   */
  void waitOnTimeline(StoredTask claimed, Claim claim, Instant at, StartCheck.Hold held) {
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
    wakeups.released(ready.claim().permits().release(AttemptEnd.CANCELLED));
    return cancelled.isPresent();
  }
}
