package io.taskgate.engine.schedule;

import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.Occurrences;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.store.DueTask;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskStore;
import java.time.Instant;
import java.util.EnumSet;
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

  public StoreSweep(
      TaskStore store, TaskQueries queries, TaskQueues queues, TaskScheduler scheduler) {
    this.store = store;
    this.queries = queries;
    this.queues = queues;
    this.scheduler = scheduler;
  }

  /**
   * Re-queues interrupted tasks and hands every queued one to the scheduler, as at start. Returns
   * how many it handed over. Safe to call again: tasks already held are not doubled, and tasks
   * running here are left alone.
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
    }
  }

  /**
   * Puts the tasks left IN_PROGRESS back to QUEUED, a page at a time: their attempt was cut short
   * (the application stopped or crashed), so it is given back and runs again. Tasks this engine
   * holds are running here and are left alone.
   */
  private void requeueInterrupted(Instant now) {
    Set<UUID> seen = new HashSet<>();
    while (true) {
      boolean fresh = false;
      for (StoredTask task :
          queries.findByStatus(EnumSet.of(TaskStatus.IN_PROGRESS), INTERRUPTED_PAGE)) {
        if (!seen.add(task.id())) {
          continue;
        }
        fresh = true;
        if (!scheduler.holds(task.id())) {
          store.update(task, interrupted(task), now);
        }
      }
      if (!fresh) {
        return;
      }
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
