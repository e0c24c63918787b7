package io.taskgate.engine.schedule;

import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.Occurrences;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.store.DueTask;
import io.taskgate.store.InstanceRecord;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskStore;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Hands the stored queued tasks to the scheduler: every one of them at recovery, and at each sweep
 * the due ones that no timer, channel or worker holds. It reads the store a page at a time and
 * never waits for room in a queue: what does not fit is read again when the queue has room. A
 * stored task that cannot be scheduled is failed on its own, with the reason.
 *
 * <p>Several instances may share the store: each takes only its own tasks and those of no live
 * instance (made its own first, by a compare-and-set), never a live peer's, which that peer holds
 * in memory; and it takes over the tasks of peers that died ({@link #takeOver}).
 */
public final class StoreSweep {
  private static final Logger LOG = Logger.getLogger(StoreSweep.class.getName());

  /** Tasks per read. */
  static final int BATCH = 1_000;

  /** Pages read at most by one sweep; the next sweep starts over. */
  static final int SWEEP_PAGES = 100;

  /** Interrupted tasks re-queued per read at recovery. */
  private static final int INTERRUPTED_PAGE = 200;

  private final TaskStore store;
  private final TaskQueries queries;
  private final TaskQueues queues;
  private final TaskScheduler scheduler;
  private final Instances instances;

  public StoreSweep(
      TaskStore store,
      TaskQueries queries,
      TaskQueues queues,
      TaskScheduler scheduler,
      Instances instances) {
    this.store = store;
    this.queries = queries;
    this.queues = queues;
    this.scheduler = scheduler;
    this.instances = instances;
  }

  /**
   * Re-queues interrupted tasks and hands every queued one to the scheduler, as at start. Returns
   * how many it handed over. Once every queue is full it reads no more due tasks (they wait for the
   * refill, which cannot read while recovery runs) and goes on with those not yet due. Safe to call
   * again: tasks already held are not doubled, and tasks running here are left alone.
   */
  public int recover(Instant now) {
    requeueInterrupted(now);
    int handed = 0;
    Set<String> full = new HashSet<>();
    DueTask after = null;
    while (true) {
      List<DueTask> page = queries.findQueued(after, BATCH);
      for (DueTask task : page) {
        if (handOver(task, now, full, true)) {
          handed++;
        }
      }
      if (page.size() < BATCH) {
        return handed;
      }
      after = page.get(page.size() - 1);
      if (!after.scheduledAt().isAfter(now) && full.containsAll(queues.names())) {
        // pages come in due order: every queue is full, so the due tasks left wait for the refill
        // and the sweep; read on from the first task not yet due, for the scheduler's timers
        after = afterEveryDue(now);
      }
    }
  }

  /** A cursor past every task due by {@code now}: the greatest id at that instant. */
  private static DueTask afterEveryDue(Instant now) {
    return new DueTask(new UUID(-1L, -1L), "", now, false, null);
  }

  /**
   * Puts the tasks left IN_PROGRESS back to QUEUED, a page at a time: their attempt was cut short
   * (the application stopped or crashed), so it is given back and runs again here. Only this
   * instance's own tasks and those of no live instance are touched: a live peer's are running
   * there. Tasks this engine holds are running here and are left alone.
   */
  private void requeueInterrupted(Instant now) {
    Set<String> peers = new HashSet<>(instances.alive(now));
    peers.remove(instances.self());
    UUID after = null;
    while (true) {
      List<StoredTask> page =
          queries.findOrphans(TaskStatus.IN_PROGRESS, peers, after, INTERRUPTED_PAGE);
      for (StoredTask task : page) {
        if (!scheduler.holds(task.id()) && instances.mayTake(task.owner(), now)) {
          store.update(task, interrupted(task).withOwner(instances.self()), now);
        }
      }
      if (page.size() < INTERRUPTED_PAGE) {
        return;
      }
      after = page.get(page.size() - 1).id();
    }
  }

  /**
   * Takes over the tasks of the peers that died (their last beat older than the instance timeout,
   * or stopped): their interrupted attempts are queued again here with the attempt given back, and
   * their queued tasks become this instance's and go to its scheduler at their due times. Every
   * change is a compare-and-set, so when several instances take over at once each task goes to
   * exactly one. A dead peer left with no task is forgotten (its row removed, unless it came back
   * meanwhile). Returns how many tasks it took.
   */
  public int takeOver(Instant now) {
    int taken = 0;
    for (InstanceRecord dead : instances.deadPeers(now)) {
      Set<String> owner = Set.of(dead.id());
      taken += takeOver(TaskStatus.IN_PROGRESS, owner, now);
      taken += takeOver(TaskStatus.QUEUED, owner, now);
      if (queries.findOwnedBy(TaskStatus.IN_PROGRESS, owner, null, 1).isEmpty()
          && queries.findOwnedBy(TaskStatus.QUEUED, owner, null, 1).isEmpty()) {
        instances.forget(dead);
      }
    }
    return taken;
  }

  private int takeOver(TaskStatus status, Set<String> owner, Instant now) {
    int taken = 0;
    UUID after = null;
    while (true) {
      List<StoredTask> page = queries.findOwnedBy(status, owner, after, BATCH);
      for (StoredTask task : page) {
        StoredTask mine =
            (status == TaskStatus.IN_PROGRESS ? interrupted(task) : task)
                .withOwner(instances.self());
        Optional<StoredTask> took = store.update(task, mine, now);
        if (took.isPresent()) {
          taken++;
          instances.adopted(task.id(), now);
          offer(took.get(), now);
        }
      }
      if (page.size() < BATCH) {
        return taken;
      }
      after = page.get(page.size() - 1).id();
    }
  }

  /** Hands a task taken over to the scheduler; a full queue leaves it to the sweep. */
  private void offer(StoredTask task, Instant now) {
    try {
      scheduler.offer(task.queue(), task.id(), task.scheduledAt());
    } catch (UnschedulableTaskException e) {
      failAlone(task.id(), e.getMessage(), now);
    }
  }

  /**
   * An interrupted task queued again, its attempt given back: a crash is not the handler's failure.
   */
  public static StoredTask interrupted(StoredTask task) {
    return task.withStatus(TaskStatus.QUEUED)
        .withAttempt(Math.max(0, task.attempt() - 1))
        .withLastError(
            INTERRUPTED
                + ": attempt "
                + task.attempt()
                + " did not finish (the application stopped); it runs again and is not counted");
  }

  /** How the error of a task whose attempt a stop or crash cut short begins. */
  public static final String INTERRUPTED = "interrupted";

  /**
   * Hands one stored queued task to the scheduler unless it is held already or its queue is full
   * (its name is then added to {@code full}, and the sweep brings it back when there is room). At
   * recovery a recurring task whose occurrence passed while the application was down moves on to
   * its next occurrence (missed ones are skipped). A task that cannot be scheduled is failed.
   * Returns whether it was handed over.
   */
  private boolean handOver(DueTask task, Instant now, Set<String> full, boolean recovering) {
    if (scheduler.holds(task.id())) {
      return false;
    }
    if (!instances.self().equals(task.owner())
        && (!instances.mayTake(task.owner(), now) || !adopt(task, now))) {
      return false; // a live peer holds it, or another instance took it first
    }
    boolean due = !task.scheduledAt().isAfter(now);
    if (due && full.contains(queues.resolve(task.queue()))) {
      return false;
    }
    try {
      Instant at = task.scheduledAt();
      if (recovering && task.recurring() && task.scheduledAt().isBefore(now)) {
        Optional<StoredTask> rearmed = skipMissedOccurrences(task.id(), now);
        if (rearmed.isEmpty()) {
          return false;
        }
        at = rearmed.get().scheduledAt();
      }
      TaskScheduler.Offer offer = scheduler.offer(task.queue(), task.id(), at);
      if (offer == TaskScheduler.Offer.QUEUE_FULL) {
        full.add(queues.resolve(task.queue()));
      }
      return offer == TaskScheduler.Offer.HANDED;
    } catch (UnschedulableTaskException e) {
      failAlone(task.id(), e.getMessage(), now);
      return false;
    }
  }

  /** Makes a task of no live instance this instance's (a compare-and-set); whether it did. */
  private boolean adopt(DueTask task, Instant now) {
    return store
        .find(task.id())
        .filter(
            t ->
                t.status() == TaskStatus.QUEUED
                    && java.util.Objects.equals(t.owner(), task.owner()))
        .flatMap(t -> store.update(t, t.withOwner(instances.self()), now))
        .isPresent();
  }

  /** The recurring task moved on to its next occurrence; empty if it is no longer queued. */
  private Optional<StoredTask> skipMissedOccurrences(UUID id, Instant now) {
    Optional<StoredTask> found = store.find(id);
    if (found.isEmpty() || found.get().status() != TaskStatus.QUEUED) {
      return Optional.empty();
    }
    StoredTask task = found.get();
    if (!missedOccurrence(task, now)) {
      return found;
    }
    StoredTask next;
    try {
      next = requeue(task, now);
    } catch (RuntimeException e) {
      throw new UnschedulableTaskException(
          "its recurrence cannot be read (" + task.recurrence() + "): " + e.getMessage(), e);
    }
    return store.update(task, next, now);
  }

  /** Fails a stored task the engine cannot schedule, with the reason as its error. */
  private void failAlone(UUID id, String reason, Instant now) {
    LOG.warning("Taskgate failed task " + id + ": " + reason);
    store
        .find(id)
        .filter(task -> task.status() == TaskStatus.QUEUED)
        .ifPresent(
            task ->
                store.update(
                    task,
                    task.withStatus(TaskStatus.FAILED)
                        .withLastError("cannot be scheduled: " + reason),
                    now));
  }

  /**
   * Hands the due queued tasks that no timer, channel or worker holds back to the scheduler. It
   * reads only their ids and queues, a page at a time, so that thousands of tasks parked until
   * their rate-limit slots (QUEUED and due, but held) cost little, and a lost task behind them is
   * still found; at most {@value #SWEEP_PAGES} pages a sweep, the next sweep starting over. Returns
   * how many tasks it handed to the scheduler.
   */
  public int sweep(Instant now) {
    int handed = 0;
    Set<String> full = new HashSet<>();
    DueTask after = null;
    for (int page = 0; page < SWEEP_PAGES; page++) {
      List<DueTask> due = store.findDue(now, after, BATCH);
      for (DueTask task : due) {
        if (handOver(task, now, full, false)) {
          handed++;
        }
      }
      if (due.size() < BATCH || full.containsAll(queues.names())) {
        break;
      }
      after = due.get(due.size() - 1);
    }
    return handed;
  }

  /**
   * The task queued again: an interrupted attempt as it was, a recurring task whose occurrence
   * passed while the application was down at its next occurrence (missed ones are skipped).
   */
  private static StoredTask requeue(StoredTask task, Instant now) {
    StoredTask queued = task.withStatus(TaskStatus.QUEUED);
    if (missedOccurrence(task, now)) {
      Optional<Instant> next =
          Occurrences.next(
              Recurrence.decode(task.recurrence()), task.scheduledAt(), now, task.runs());
      return next.map(queued::withScheduledAt).orElse(queued);
    }
    return queued;
  }

  private static boolean missedOccurrence(StoredTask task, Instant now) {
    return task.recurrence() != null && task.attempt() == 0 && task.scheduledAt().isBefore(now);
  }
}
