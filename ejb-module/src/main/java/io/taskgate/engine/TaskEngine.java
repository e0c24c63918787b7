package io.taskgate.engine;

import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.Occurrences;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.run.AttemptRunner;
import io.taskgate.engine.schedule.OffTimer;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.schedule.UnschedulableTaskException;
import io.taskgate.store.DueTask;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskQueries;
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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Starts the engine with the application. At deployment it connects the queues to the runner and
 * starts the sweeper; once the application has initialised ({@link ConsumerStart}) it lets the
 * workers start and recovers, in the background, the tasks that were queued or running when the
 * application last stopped (at-least-once: a task that was running runs again, and the attempt cut
 * short does not count). Recovery streams the store a page at a time and never waits for room in a
 * queue: what does not fit is read again when the queue has room, so a backlog of any size neither
 * holds up the deployment nor fills the memory. A stored task that cannot be scheduled is failed on
 * its own, with the reason.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class TaskEngine {
  private static final Logger LOG = Logger.getLogger(TaskEngine.class.getName());
  private static final int BATCH = 1_000;
  static final int SWEEP_PAGES = 100;

  /** Interrupted tasks re-queued per read at recovery. */
  private static final int INTERRUPTED_PAGE = 200;

  @Inject TaskStore store;
  @Inject TaskQueries queries;
  @Inject TaskQueues queues;
  @Inject AttemptRunner runner;
  @Inject TaskScheduler scheduler;
  @Inject InstantSource clock;
  @Inject ConsumerStart consumerStart;

  @Inject
  @ConfigProperty(name = "taskgate.sweep.interval", defaultValue = "PT5S")
  String sweepInterval;

  @Resource ManagedScheduledExecutorService timers;
  @Resource ManagedExecutorService executor;

  private ScheduledFuture<?> sweeper;
  private volatile Instant started;
  private volatile Instant recovered;
  volatile boolean recoveryEnded; // recovery finished or stopped early: the sweep may read
  private volatile Instant lastSweep;
  private volatile Duration sweepEvery;
  private final AtomicBoolean opened = new AtomicBoolean();
  private final AtomicBoolean refillPending = new AtomicBoolean();
  private final Object sweepLock = new Object();

  @PostConstruct
  void start() {
    // Produces the store and the read model here, in the EJB module whose persistence unit they
    // use: in an EAR the web module, which cannot resolve that unit, would otherwise be first.
    store.findDue(clock.instant(), null, 0);
    queries.findQueued(null, 0);
    queues.onTask(runner::runAll);
    queues.onRoom(this::refillSoon);
    sweepEvery = Duration.parse(sweepInterval);
    long every = sweepEvery.toMillis();
    sweeper =
        timers.scheduleWithFixedDelay(
            new OffTimer("sweep", executor, this::sweep), every, every, TimeUnit.MILLISECONDS);
    consumerStart.whenInitialised(this::startConsuming);
  }

  /**
   * Lets the workers start and recovers the stored tasks in the background. Called once the
   * application has initialised; later calls do nothing.
   */
  public void startConsuming() {
    if (!opened.compareAndSet(false, true)) {
      return;
    }
    queues.startConsuming();
    started = clock.instant();
    executor.execute(
        () -> {
          try {
            int n = recover();
            recovered = clock.instant();
            if (n > 0) {
              LOG.info("Taskgate recovered " + n + " queued or interrupted tasks");
            }
          } catch (RuntimeException e) {
            LOG.log(
                Level.SEVERE,
                "Taskgate recovery stopped early; the sweep picks up the due tasks it left",
                e);
          } finally {
            recoveryEnded = true;
          }
        });
  }

  /** When the engine began consuming (after the application initialised); empty before. */
  public Optional<Instant> started() {
    return Optional.ofNullable(started);
  }

  /** When recovery of the stored tasks finished; empty before. */
  public Optional<Instant> recovered() {
    return Optional.ofNullable(recovered);
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
   * Re-queues interrupted tasks and hands every queued one to the scheduler, as at start. Returns
   * how many it handed over. Safe to call again (tests call it to simulate a restart): tasks
   * already held are not doubled, and tasks running here are left alone.
   */
  public int recover() {
    Instant now = clock.instant();
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
  static StoredTask interrupted(StoredTask task) {
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
  /**
   * One sweep, unless recovery has not ended yet: before it, a sweep would hand over the recurring
   * tasks that missed occurrences while the application was down without moving them on.
   */
  void sweep() {
    if (!recoveryEnded) {
      return;
    }
    synchronized (sweepLock) {
      sweepTick();
    }
  }

  private void sweepTick() {
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
   * A queue that was full has room again: reads the store for the due tasks it could not take, on
   * the executor, at most one such read waiting at a time.
   */
  void refillSoon() {
    if (!refillPending.compareAndSet(false, true)) {
      return;
    }
    executor.execute(
        () -> {
          refillPending.set(false);
          synchronized (sweepLock) {
            try {
              sweepStore(clock.instant());
            } catch (RuntimeException e) {
              LOG.log(Level.WARNING, "Taskgate could not refill its queues; the sweep will", e);
            }
          }
        });
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
