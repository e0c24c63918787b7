package io.taskgate.engine.run;

import io.taskgate.core.task.AttemptOutcomes;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.handler.HandlerInvoker;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permits;
import io.taskgate.engine.throttle.StartCheck;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Runs attempts of stored tasks on the calling worker: prepares each (reads it, finds its handler
 * and payload, passes it through the throttle door, {@code engine.throttle}), claims the batch
 * (QUEUED → IN_PROGRESS, a compare-and-set, so a task never runs twice at once), calls each handler
 * and has the {@link OutcomeRecorder} store what each attempt ended in, deciding by {@link
 * AttemptOutcomes}: COMPLETED, the next occurrence of a recurring task, a retry after the policy's
 * backoff, or FAILED. A task whose handler or payload cannot be found fails alone.
 */
@ApplicationScoped
public class AttemptRunner {
  private static final Logger LOG = Logger.getLogger(AttemptRunner.class.getName());

  /** Outcomes of attempts that end within this many ms of each other are stored together. */
  static final long OUTCOME_BATCH_MILLIS = 20;

  private static final long OUTCOME_BATCH_NANOS = OUTCOME_BATCH_MILLIS * 1_000_000;

  private final TaskScheduler scheduler;
  private final InstantSource clock;
  private final RunningTasks running;
  private final TaskClaimer claimer;
  private final ClaimsAhead ahead;
  private final Wakeups wakeups;
  private final AttemptExecutor executor;
  private final OutcomeRecorder recorder;
  private final HandlerInvoker invoker;
  private final Ticker ticker;

  /** For the CDI proxy. */
  protected AttemptRunner() {
    this(null, null, null, null, null, null, null, null, null, null);
  }

  @Inject
  AttemptRunner(
      TaskScheduler scheduler,
      InstantSource clock,
      RunningTasks running,
      TaskClaimer claimer,
      ClaimsAhead ahead,
      Wakeups wakeups,
      AttemptExecutor executor,
      OutcomeRecorder recorder,
      HandlerInvoker invoker,
      Ticker ticker) {
    this.scheduler = scheduler;
    this.clock = clock;
    this.running = running;
    this.claimer = claimer;
    this.ahead = ahead;
    this.wakeups = wakeups;
    this.executor = executor;
    this.recorder = recorder;
    this.invoker = invoker;
    this.ticker = ticker;
  }

  /** Runs the task's attempt, then hands it back to the scheduler if it has more to do. */
  public void run(UUID taskId) {
    runAll(List.of(taskId));
  }

  /**
   * Runs one attempt of each task, one after the other on the calling worker, then hands each back
   * to the scheduler if it has more to do. The claims of the tasks are committed together, and so
   * are the outcomes of attempts that end within {@value #OUTCOME_BATCH_MILLIS} ms of each other,
   * so a batch of short tasks costs two commits instead of two per task. An outcome is always
   * stored before its {@code onCompleted} callback runs.
   */
  public void runAll(List<UUID> taskIds) {
    runAll(taskIds, null);
  }

  /**
   * {@link #runAll(List)} for a worker of a queue: while it waits for the store to commit its
   * claims or outcomes, it starts the tasks that come to the queue's start lane meanwhile ({@link
   * CommitTimeStarts}), so that a commit held up by the database holds up no start.
   */
  public void runAll(List<UUID> taskIds, TaskQueues.StartLane starts) {
    if (starts == null) {
      runBatch(taskIds, null);
      return;
    }
    // the waiters a release of this worker's hands over run next, here, a batch of them at a time
    List<UUID> next = taskIds;
    for (int round = 0; !next.isEmpty(); round++) {
      HandOff handOff = round < MAX_HAND_OFF_ROUNDS ? HandOff.begin() : null;
      try {
        runBatch(next, starts);
      } catch (RuntimeException | Error e) {
        if (handOff != null) {
          handOff.end().forEach(scheduler::letGo); // the sweep finds them
        }
        throw e;
      }
      next = handOff == null ? List.of() : handOff.end();
      starts.ranMore(next.size());
    }
  }

  private static final String BATCH_PREFIX = "run-" + UUID.randomUUID() + "-";
  private static final AtomicLong BATCHES = new AtomicLong();

  /** A new id for a worker's batch, unique across the cluster. */
  static String newBatch() {
    return BATCH_PREFIX + BATCHES.incrementAndGet();
  }

  /** How many batches in a row a worker takes on by hand-over before it goes back to its queue. */
  static final int MAX_HAND_OFF_ROUNDS = 16;

  private void runBatch(List<UUID> taskIds, TaskQueues.StartLane starts) {
    CommitTimeStarts helping =
        starts == null
            ? null
            : new CommitTimeStarts(
                starts, running, invoker, recorder, scheduler, this::startClaimedAhead);
    List<AttemptOutcome> outcomes = new ArrayList<>(taskIds.size());
    Set<UUID> open = new HashSet<>(taskIds);
    Set<UUID> waiting = new HashSet<>(0); // claimed ahead of their slot here: not done executing
    List<Claim> held = new ArrayList<>(taskIds.size()); // whose permits this worker gives back
    try {
      long oldest = ticker.nanos(); // of the outcomes not stored yet
      // tasks claimed ahead whose slot has come start first, before anything waits for the store
      List<UUID> toClaim = new ArrayList<>(taskIds.size());
      for (UUID id : taskIds) {
        RunningTasks.Ready ready = running.takeClaimedAhead(id);
        if (ready == null) {
          toClaim.add(id);
          continue;
        }
        held.add(ready.claim());
        running.executing(id);
        ready.claim().permits().leftWaiting(id);
        oldest = finishIfOld(outcomes, open, oldest, helping);
        ran(execute(ready.running(), ready.claim(), ready.held()), id, outcomes, open, waiting);
      }
      List<Claim> claims = new ArrayList<>(toClaim.size());
      Map<UUID, StoredTask> read = claimer.readUnknown(toClaim);
      Instant now = clock.instant();
      long gatedAt = ticker.nanos();
      String batch = toClaim.size() > 1 ? newBatch() : null;
      for (UUID id : toClaim) {
        Claim claim = claimer.prepare(id, now, outcomes, read, batch);
        if (claim != null) {
          claims.add(claim);
          held.add(claim);
        }
      }
      HandOff handOff = claims.isEmpty() ? null : HandOff.current();
      if (handOff != null) {
        handOff.queue(claims.get(0).queued().queue()); // it takes on waiters of this queue only
      }
      if (!claims.isEmpty() && !outcomes.isEmpty()) {
        // park (hand their timers over) and store what the ready tasks did before the claims
        recorder.finish(outcomes, open, helping);
      }
      CountDownLatch settled = running.claimingForSlots(claims);
      List<StoredTask> claimed;
      try {
        claimed = recorder.claim(claims, outcomes, helping);
        claimsCommitted(claims, ticker.nanos() - gatedAt);
        ahead.placeClaimed(claims, claimed, waiting);
        open.removeAll(waiting);
      } finally {
        running.settled(claims, settled);
      }
      oldest = ticker.nanos();
      for (int i = 0; i < claims.size(); i++) {
        StoredTask claimedTask = claimed.get(i);
        if (claimedTask != null) {
          oldest = finishIfOld(outcomes, open, oldest, helping);
          AttemptOutcome outcome = execute(claimedTask, claims.get(i), null);
          ran(outcome, claimedTask.id(), outcomes, open, waiting);
        }
      }
    } finally {
      try {
        recorder.finish(outcomes, open, helping);
        if (helping != null) {
          helping.finishAll();
        }
      } finally {
        giveBack(held, waiting);
        open.forEach(scheduler::letGo); // left without an outcome: the sweep finds them
        for (UUID id : taskIds) {
          if (!waiting.contains(id)) {
            running.doneExecuting(id);
          }
        }
      }
    }
  }

  /**
   * Gives back the permits of every attempt this worker took on and does not leave waiting on the
   * timeline. An attempt that ended gave its permits back already (that second release does
   * nothing); one that did not (the engine failed on the way, the store refusing the claim, say)
   * gives them back here as {@link AttemptEnd#ABORTED}, so that a key's or a resource's budget is
   * never held by a task that is not running.
   */
  private void giveBack(List<Claim> held, Set<UUID> waiting) {
    for (Claim claim : held) {
      if (!waiting.contains(claim.queued().id())) {
        wakeups.released(claim.permits().release(AttemptEnd.ABORTED));
      }
    }
  }

  /**
   * Tells the throttles that let tasks of the batch run now, holding something, that their claims
   * were committed {@code nanos} after they decided ({@link Throttle#claimsCommitted}), once each.
   */
  private static void claimsCommitted(List<Claim> claims, long nanos) {
    Set<Throttle> letRun = null;
    for (Claim claim : claims) {
      if (claim.startAt() == null && claim.permits() != Permits.NONE) {
        if (letRun == null) {
          letRun = new HashSet<>(2);
        }
        claim.permits().throttlesHolding(letRun);
      }
    }
    if (letRun != null) {
      letRun.forEach(t -> t.claimsCommitted(nanos));
    }
  }

  /** Adds an attempt's outcome; a null outcome (held for spacing) waits on the timeline. */
  private static void ran(
      AttemptOutcome outcome,
      UUID id,
      List<AttemptOutcome> outcomes,
      Set<UUID> open,
      Set<UUID> waiting) {
    if (outcome == null) {
      waiting.add(id);
      open.remove(id);
    } else {
      outcomes.add(outcome);
    }
  }

  /**
   * Runs a claimed attempt. A fault of the engine on the way (not the handler's: the executor
   * catches those) fails the attempt under its retry policy instead of leaving the task IN_PROGRESS
   * with nobody running it, which only a restart would find.
   */
  private AttemptOutcome execute(StoredTask claimed, Claim claim, StartCheck.Hold held) {
    try {
      return executor.execute(claimed, claim, held);
    } catch (RuntimeException | LinkageError fault) {
      return executor.engineFailed(claimed, claim, fault);
    }
  }

  /** A task claimed ahead whose slot has come starts on a worker waiting for a commit. */
  private AttemptOutcome startClaimedAhead(RunningTasks.Ready ready) {
    UUID id = ready.running().id();
    running.executing(id);
    ready.claim().permits().leftWaiting(id);
    try {
      return execute(ready.running(), ready.claim(), ready.held());
    } catch (RuntimeException e) {
      wakeups.released(ready.claim().permits().release(AttemptEnd.ABORTED));
      throw e;
    }
  }

  /** Stores the outcomes gathered so far if the oldest is {@value #OUTCOME_BATCH_MILLIS} ms old. */
  private long finishIfOld(
      List<AttemptOutcome> outcomes, Set<UUID> open, long oldest, CommitTimeStarts helping) {
    if (ticker.nanos() - oldest < OUTCOME_BATCH_NANOS) {
      return oldest;
    }
    recorder.finish(outcomes, open, helping);
    return ticker.nanos();
  }
}
