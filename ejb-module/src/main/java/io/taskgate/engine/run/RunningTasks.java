package io.taskgate.engine.run;

import io.taskgate.core.time.Ticker;
import io.taskgate.engine.throttle.StartCheck;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this instance runs: the tasks claimed here whose outcome is not stored yet (so that a second
 * delivery of one is re-parked, never run twice at once and never dropped), the tasks claimed ahead
 * of their rate-limit slot that wait on the timeline to start, the claims for a slot being
 * committed right now, and the copies of tasks the dispatcher has just stored.
 */
@ApplicationScoped
public class RunningTasks {
  private final Ticker ticker;

  /** A delivery of a task that runs here already is re-parked this long, at least. */
  static final Duration REDELIVERY_DELAY_MIN = Duration.ofMillis(100);

  /** ... and at most this long (the delay grows with how long the task has been running). */
  static final Duration REDELIVERY_DELAY_MAX = Duration.ofSeconds(5);

  /** How long a cancel waits at most for a claim being committed (the longest claim-ahead). */
  static final Duration CLAIMING_WAIT = Throttles.MAX_CLAIM_AHEAD;

  /** A task claimed here: the worker thread and when ({@code System.nanoTime}) it was claimed. */
  record Executing(Thread worker, long sinceNanos) {}

  /**
   * A claimed task waiting on the timeline to start: as the claim stored it, what it runs with,
   * and, if it waits because its start was held back for spacing rather than for its slot, the
   * first instant it was held back for (its place among the held starts; null if it waits for its
   * slot).
   */
  record Ready(StoredTask running, Claim claim, StartCheck.Hold held) {}

  private final Map<UUID, Executing> executing = new ConcurrentHashMap<>();

  /**
   * Tasks as the dispatcher has just stored them, so that their first attempt need not read them
   * back. Only a hint: the claim is a compare-and-set on the version, so a task changed since (new
   * payload, cancelled) fails the claim and is read again.
   */
  private final Map<UUID, StoredTask> justStored = new ConcurrentHashMap<>();

  /**
   * Rate-limited tasks claimed shortly before their reserved slot ({@code
   * taskgate.rate-limit.claim-ahead}), or held back for spacing: their claim is committed, and they
   * wait on the scheduler's timeline to start, so that the start waits for no database. They stay
   * parked until they start, and a cancel can still take one back.
   */
  private final Map<UUID, Ready> claimedAhead = new ConcurrentHashMap<>();

  /**
   * Tasks whose claim for their slot is being committed, until the runner has put each where it
   * belongs (claimed ahead, or started): their row may already read IN_PROGRESS, and a cancel waits
   * for this before it looks.
   */
  private final Map<UUID, CountDownLatch> claiming = new ConcurrentHashMap<>();

  private final AtomicLong startsWhileWaiting = new AtomicLong();

  /** For the CDI proxy. */
  protected RunningTasks() {
    this(null);
  }

  @Inject
  RunningTasks(Ticker ticker) {
    this.ticker = ticker;
  }

  /** The task runs on the calling worker from now. */
  void executing(UUID taskId) {
    executing.put(taskId, new Executing(Thread.currentThread(), ticker.nanos()));
  }

  /** The task claimed here, or null. */
  Executing executingNow(UUID taskId) {
    return executing.get(taskId);
  }

  /** This worker is done with the task's attempt: its outcome is stored, or it never ran. */
  void doneExecuting(UUID taskId) {
    executing.computeIfPresent(
        taskId, (id, running) -> running.worker() == Thread.currentThread() ? null : running);
  }

  /** The task's claim was cancelled before it started: it does not run here. */
  void notExecuting(UUID taskId) {
    executing.remove(taskId);
  }

  /**
   * How long a task delivered again while it runs here on another worker (a recovery race) waits
   * before it is looked at again ({@link #redeliveryDelay}); null if it does not run here, or runs
   * on this very thread.
   */
  Duration redeliveredWhileRunning(UUID taskId) {
    Executing already = executingNow(taskId);
    if (already == null || already.worker() == Thread.currentThread()) {
      return null;
    }
    return redeliveryDelay(ticker.nanos() - already.sinceNanos());
  }

  /**
   * How long a second delivery of a task that has been running for {@code runningNanos} is
   * re-parked: as long as it has run so far, within {@link #REDELIVERY_DELAY_MIN} and {@link
   * #REDELIVERY_DELAY_MAX}, so that a long attempt is checked on a few times rather than every
   * {@code REDELIVERY_DELAY_MIN}.
   */
  static Duration redeliveryDelay(long runningNanos) {
    long nanos =
        Math.max(
            REDELIVERY_DELAY_MIN.toNanos(), Math.min(runningNanos, REDELIVERY_DELAY_MAX.toNanos()));
    return Duration.ofNanos(nanos);
  }

  /** The dispatcher has stored {@code task}, due now, and is about to hand it to its queue. */
  public void justStored(StoredTask task) {
    justStored.put(task.id(), task);
  }

  /** Takes the dispatcher's copy of the task, or null. */
  StoredTask takeJustStored(UUID taskId) {
    return justStored.remove(taskId);
  }

  boolean isJustStored(UUID taskId) {
    return justStored.containsKey(taskId);
  }

  /**
   * The dispatcher could not hand the task to its queue: the sweep will, and the runner reads it.
   */
  public void forget(UUID taskId) {
    justStored.remove(taskId);
  }

  /** The task waits on the timeline, claimed, to start. */
  void claimedAhead(UUID taskId, Ready ready) {
    claimedAhead.put(taskId, ready);
  }

  /** Takes the task claimed ahead, or null if it is not (any more). */
  Ready takeClaimedAhead(UUID taskId) {
    return claimedAhead.remove(taskId);
  }

  Ready claimedAhead(UUID taskId) {
    return claimedAhead.get(taskId);
  }

  /**
   * Marks the tasks about to be claimed for their slot as being claimed; returns the latch that
   * {@link #settled} opens, or null if there are none.
   */
  CountDownLatch claimingForSlots(List<Claim> claims) {
    CountDownLatch latch = null;
    for (Claim claim : claims) {
      if (claim.startAt() != null) {
        if (latch == null) {
          latch = new CountDownLatch(1);
        }
        claiming.put(claim.queued().id(), latch);
      }
    }
    return latch;
  }

  /** The claims of {@link #claimingForSlots} are committed (or failed) and placed. */
  void settled(List<Claim> claims, CountDownLatch latch) {
    if (latch == null) {
      return;
    }
    for (Claim claim : claims) {
      if (claim.startAt() != null) {
        claiming.remove(claim.queued().id(), latch);
      }
    }
    latch.countDown();
  }

  /**
   * Waits for the task's claim if it is being committed right now, at most {@link #CLAIMING_WAIT};
   * false if it did not settle in time (or the wait was interrupted).
   */
  boolean awaitClaim(UUID taskId) {
    CountDownLatch pending = claiming.get(taskId);
    if (pending == null) {
      return true;
    }
    try {
      return pending.await(CLAIMING_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** A worker waiting for the store started a task. */
  void startedWhileWaiting() {
    startsWhileWaiting.incrementAndGet();
  }

  /** Tasks started so far by a worker waiting for the store to commit its own writes. */
  public long startsWhileWaiting() {
    return startsWhileWaiting.get();
  }
}
