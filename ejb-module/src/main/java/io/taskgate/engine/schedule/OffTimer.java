package io.taskgate.engine.schedule;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A periodic job that a timer only hands over to an executor: the timers that fire parked tasks at
 * their slots share their threads with the periodic jobs, so a job that reads the store (the sweep)
 * or fires events must not run on a timer thread, where it would make every slot due meanwhile
 * late. A run is skipped while the previous one is still going.
 */
public final class OffTimer implements Runnable {
  private static final Logger LOG = Logger.getLogger(OffTimer.class.getName());

  private final String name;
  private final Executor executor;
  private final Runnable job;
  private final AtomicBoolean running = new AtomicBoolean();

  /** A job {@code name}d for the logs, run on {@code executor} each time the timer fires. */
  public OffTimer(String name, Executor executor, Runnable job) {
    this.name = Objects.requireNonNull(name, "name");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.job = Objects.requireNonNull(job, "job");
  }

  /**
   * Runs {@code job}, {@code name}d for the logs, on {@code executor} first after {@code first},
   * then {@code period} after each run, fired by {@code timers}; cancel the answer to stop it.
   */
  public static ScheduledFuture<?> every(
      ScheduledExecutorService timers,
      String name,
      Duration first,
      Duration period,
      Executor executor,
      Runnable job) {
    return timers.scheduleWithFixedDelay(
        new OffTimer(name, executor, job), first.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * {@link #every(ScheduledExecutorService, String, Duration, Duration, Executor, Runnable)}, first
   * after one {@code period}.
   */
  public static ScheduledFuture<?> every(
      ScheduledExecutorService timers,
      String name,
      Duration period,
      Executor executor,
      Runnable job) {
    return every(timers, name, period, period, executor, job);
  }

  @Override
  public void run() {
    if (!running.compareAndSet(false, true)) {
      return;
    }
    try {
      executor.execute(
          () -> {
            try {
              job.run();
            } catch (RuntimeException e) {
              LOG.log(Level.WARNING, "Taskgate's " + name + " failed; its next run retries", e);
            } finally {
              running.set(false);
            }
          });
    } catch (RejectedExecutionException e) {
      running.set(false);
      LOG.log(Level.FINE, "Taskgate's " + name + " was refused by its executor; retried", e);
    }
  }
}
