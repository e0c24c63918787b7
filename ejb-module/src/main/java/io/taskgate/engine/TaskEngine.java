package io.taskgate.engine;

import io.taskgate.core.task.Occurrences;
import io.taskgate.core.task.Recurrence;
import io.taskgate.core.task.TaskStatus;
import io.taskgate.store.DueTask;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Starts the engine with the application: connects the queues to the runner, recovers the tasks
 * that were queued or running when the application last stopped (at-least-once: a task that was
 * running runs again), and sweeps the store now and then for due tasks no worker holds.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class TaskEngine {
  private static final Logger LOG = Logger.getLogger(TaskEngine.class.getName());
  private static final int BATCH = 1_000;
  static final int SWEEP_PAGES = 100;

  @Inject TaskStore store;
  @Inject TaskQueues queues;
  @Inject TaskRunner runner;
  @Inject TaskScheduler scheduler;
  @Inject InstantSource clock;

  @Inject
  @ConfigProperty(name = "taskgate.sweep.interval", defaultValue = "PT5S")
  String sweepInterval;

  @Resource ManagedScheduledExecutorService timers;
  @Resource ManagedExecutorService executor;

  private ScheduledFuture<?> sweeper;
  private volatile Instant started;
  private volatile Instant lastSweep;
  private volatile Duration sweepEvery;

  @PostConstruct
  void start() {
    queues.onTask(runner::runAll);
    int recovered = recover();
    if (recovered > 0) {
      LOG.info("Taskgate recovered " + recovered + " queued or interrupted tasks");
    }
    sweepEvery = Duration.parse(sweepInterval);
    long every = sweepEvery.toMillis();
    sweeper =
        timers.scheduleWithFixedDelay(
            new OffTimer("sweep", executor, this::sweep), every, every, TimeUnit.MILLISECONDS);
    started = clock.instant();
  }

  /** When the engine finished recovering and began consuming; empty before. */
  public Optional<Instant> started() {
    return Optional.ofNullable(started);
  }

  /** When the last sweep of the store succeeded; empty before the first. */
  public Optional<Instant> lastSweep() {
    return Optional.ofNullable(lastSweep);
  }

  /** How often the store is swept ({@code taskgate.sweep.interval}). */
  public Duration sweepEvery() {
    return sweepEvery;
  }

  @PreDestroy
  void stop() {
    if (sweeper != null) {
      sweeper.cancel(false);
    }
  }

  /**
   * Re-queues interrupted tasks and re-arms every queued one, as at start. Returns how many. Safe
   * to call again (tests call it to simulate a restart): tasks already held are not doubled.
   */
  public int recover() {
    int n = 0;
    Instant now = clock.instant();
    for (StoredTask task :
        store.findByStatus(
            EnumSet.of(TaskStatus.QUEUED, TaskStatus.IN_PROGRESS), Integer.MAX_VALUE)) {
      StoredTask queued = task;
      if (task.status() == TaskStatus.IN_PROGRESS || missedOccurrence(task, now)) {
        queued = store.update(task, requeue(task, now), now).orElse(null);
      }
      if (queued != null && queued.status() == TaskStatus.QUEUED) {
        submit(queued);
        n++;
      }
    }
    return n;
  }

  /**
   * A store that gave nothing back is read again after 1, 2, 4, 8, then every {@value
   * #MAX_QUIET_TICKS} + 1 sweep intervals.
   */
  static final int MAX_QUIET_TICKS = 11;

  private int quietTicks; // sweep ticks to let pass before the next read (sweeper only)
  private int backoff; // what quietTicks was last set to (sweeper only)

  /**
   * One tick of the sweeper ({@code taskgate.sweep.interval}). The store is read for due tasks that
   * no timer, channel or worker holds (see {@link #sweepStore}) at once when the engine let go of a
   * task it could not queue, and otherwise less and less often while reads find nothing to hand
   * back: after 1, 2, 4, 8 and then every 12 intervals (1 min by default). Such a read costs the
   * database a scan of every parked task (they are QUEUED and due in the store, held here), and
   * doing it every 5 s under a hot key's backlog disturbed the key's pacing; what a read can find
   * that nothing signals is a task another application instance stored and lost, which is picked up
   * within a minute.
   */
  void sweep() {
    try {
      Instant now = clock.instant();
      boolean letGo = scheduler.takeLetGo();
      if (!letGo && quietTicks > 0) {
        quietTicks--;
        lastSweep = now;
        return;
      }
      int handed = sweepStore(now);
      backoff = handed > 0 || letGo ? 0 : Math.min(MAX_QUIET_TICKS, Math.max(1, backoff * 2));
      quietTicks = backoff;
      lastSweep = now;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate sweep failed; the next one retries", e);
    }
  }

  /**
   * Hands due queued tasks that no timer, channel or worker holds back to the scheduler. It reads
   * only their ids and queues, a page at a time, so that thousands of tasks parked until their
   * rate-limit slots (QUEUED and due, but held) cost little, and a lost task behind them is still
   * found; at most {@value #SWEEP_PAGES} pages a sweep, the next sweep starting over. Returns how
   * many tasks it handed to the scheduler.
   */
  private int sweepStore(Instant now) {
    int handed = 0;
    DueTask after = null;
    for (int page = 0; page < SWEEP_PAGES; page++) {
      List<DueTask> due = store.findDue(now, after, BATCH);
      for (DueTask task : due) {
        if (!scheduler.holds(task.id()) && submit(task.queue(), task.id(), task.scheduledAt())) {
          handed++;
        }
      }
      if (due.size() < BATCH) {
        break;
      }
      after = due.get(due.size() - 1);
    }
    return handed;
  }

  private void submit(StoredTask task) {
    submit(task.queue(), task.id(), task.scheduledAt());
  }

  /** Hands the task to the scheduler; whether it was handed (false: already held, or refused). */
  private boolean submit(String queue, UUID id, Instant scheduledAt) {
    try {
      return scheduler.submit(queue, id, scheduledAt);
    } catch (QueueFullException e) {
      LOG.warning(e.getMessage()); // let go again: the next sweep reads the store
      return false;
    }
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
