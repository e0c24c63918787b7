package io.taskgate.engine;

import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.engine.cluster.ClusterSettings;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.cluster.grid.GridState;
import io.taskgate.engine.event.HistoryPublisher;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.run.AttemptRunner;
import io.taskgate.engine.schedule.OffTimer;
import io.taskgate.engine.schedule.Retention;
import io.taskgate.engine.schedule.StoreSweep;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.engine.trace.TaskTracing;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskStore;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Starts the engine with the application. At deployment it connects the queues to the runner,
 * starts the sweeper and this instance's heartbeat ({@link Instances}, which also writes its
 * per-minute history: {@link HistoryPublisher}); once the application has initialised ({@link
 * ConsumerStart}) it lets the workers start and recovers, in the background, the tasks that were
 * queued or running when the application last stopped (at-least-once: a task that was running runs
 * again, and the attempt cut short does not count). Recovery streams the store a page at a time and
 * never waits for room in a queue: what does not fit is read again when the queue has room, so a
 * backlog of any size neither holds up the deployment nor fills the memory. A stored task that
 * cannot be scheduled is failed on its own, with the reason.
 */
@Singleton
@Startup
@DependsOn("RateLimiterBean") // in grid mode its member of the grid goes into the first heartbeat
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class TaskEngine {
  private static final Logger LOG = Logger.getLogger(TaskEngine.class.getName());

  @Inject TaskStore store;
  @Inject TaskQueries queries;
  @Inject TaskQueues queues;
  @Inject AttemptRunner runner;
  @Inject TaskScheduler scheduler;
  @Inject InstantSource clock;
  @Inject ConsumerStart consumerStart;
  @Inject Instances instances;
  @Inject ClusterSettings cluster;
  @Inject RateLimitReads rateLimits;
  @Inject GridState grid;
  @Inject Throttles throttles;
  @Inject HandlerRegistry registry;
  @Inject Payloads payloads;
  @Inject HistoryPublisher history;
  @Inject Retention retention;
  @Inject TaskTracing tracing;

  @Inject
  @ConfigProperty(name = "taskgate.sweep.interval", defaultValue = "PT5S")
  String sweepInterval;

  @Resource ManagedScheduledExecutorService timers;
  @Resource ManagedExecutorService executor;
  @Resource ManagedThreadFactory threads;

  private ScheduledFuture<?> sweeper;
  private ScheduledFuture<?> heartbeat;
  private volatile Instant started;
  private volatile Instant recovered;
  volatile boolean recoveryEnded; // recovery finished or stopped early: the sweep may read
  private volatile Instant lastSweep;
  private volatile Duration sweepEvery;
  private final AtomicBoolean opened = new AtomicBoolean();
  private final AtomicBoolean refillPending = new AtomicBoolean();
  private final Object sweepLock = new Object();
  private StoreSweep
      storeSweep; // built on first use from the injected parts (guarded by sweepLock)

  @PostConstruct
  void start() {
    // Produces the store and the read model here, in the EJB module whose persistence unit they
    // use: in an EAR the web module, which cannot resolve that unit, would otherwise be first.
    store.findDue(clock.instant(), null, 0);
    queries.findQueued(null, 0);
    queues.onTask(runner::runAll);
    queues.onRoom(this::refillSoon);
    sweepEvery = Duration.parse(sweepInterval);
    sweeper = OffTimer.every(timers, "sweep", sweepEvery, executor, this::sweep);
    retention.start(); // a bad setting fails the deployment, naming it
    tracing.on(); // the same for taskgate.tracing.link-after; and says whether tracing is on
    // this instance's row, before any task of it is stored
    instances.beat(ParkedSummary.NONE, grid.member().orElse(null));
    long beatEvery = cluster.heartbeatInterval().toMillis();
    heartbeat =
        timers.scheduleAtFixedRate(
            new OffTimer("heartbeat", executor, this::heartbeat),
            beatEvery,
            beatEvery,
            TimeUnit.MILLISECONDS);
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
    retakeHolds();
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

  /**
   * Before any task runs: the mutexes and semaphores held by tasks that started and did not end are
   * theirs again, so that no other task takes them while they are taken back.
   */
  private void retakeHolds() {
    try {
      grid.throttlerState(threads).ifPresent(throttles::useState);
    } catch (RuntimeException e) {
      LOG.log(
          Level.SEVERE,
          "Taskgate could not keep the job throttlers' state in the data grid: each instance keeps"
              + " its own",
          e);
    }
    try {
      int held = throttles.start(registry.all(), queries, payloads);
      if (held > 0) {
        LOG.info("Taskgate: " + held + " mutex or semaphore holds taken again by their tasks");
      }
    } catch (RuntimeException e) {
      LOG.log(
          Level.SEVERE,
          "Taskgate could not read which tasks hold mutexes and semaphores; they start free",
          e);
    }
  }

  /**
   * One heartbeat: writes this instance's, with what it has parked, then, once recovery has ended,
   * takes over the tasks of the peers that died since the last one.
   */
  void heartbeat() {
    if (!instances.beat(rateLimits.parkedSummary(), grid.member().orElse(null))) {
      return;
    }
    Instant now = clock.instant();
    publishHistory(now);
    grid.checkPeers(instances.alivePeers(now), EpochNanos.of(now));
    if (!recoveryEnded) {
      return;
    }
    synchronized (sweepLock) {
      int taken = storeSweep().takeOver(clock.instant());
      if (taken > 0) {
        LOG.info("Taskgate took over " + taken + " tasks of instances that stopped or died");
      }
    }
  }

  private void publishHistory(Instant now) {
    try {
      history.publish(instances.self(), now);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate could not write this instance's per-minute history to the database; the next"
              + " heartbeat tries again",
          e);
    }
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
    if (heartbeat != null) {
      heartbeat.cancel(false);
      publishHistory(clock.instant());
      instances.leave();
    }
  }

  /**
   * Re-queues interrupted tasks and hands every queued one to the scheduler, as at start, with no
   * sweep reading at the same time. Returns how many it handed over. Safe to call again (tests call
   * it to simulate a restart): tasks already held are not doubled, and tasks running here are left
   * alone.
   */
  public int recover() {
    synchronized (sweepLock) {
      return storeSweep().recover(clock.instant());
    }
  }

  private StoreSweep storeSweep() {
    if (storeSweep == null) {
      storeSweep = new StoreSweep(store, queries, queues, scheduler, instances);
    }
    return storeSweep;
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
      int handed = storeSweep().sweep(now);
      backoff = handed > 0 || letGo ? 0 : Math.min(MAX_QUIET_TICKS, Math.max(1, backoff * 2));
      quietTicks = backoff;
      lastSweep = now;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate sweep failed; the next one retries", e);
    }
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
              storeSweep().sweep(clock.instant());
            } catch (RuntimeException e) {
              LOG.log(Level.WARNING, "Taskgate could not refill its queues; the sweep will", e);
            }
          }
        });
  }
}
