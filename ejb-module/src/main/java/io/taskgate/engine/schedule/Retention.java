package io.taskgate.engine.schedule;

import io.taskgate.api.TaskStatus;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.event.LogThrottle;
import io.taskgate.store.TaskFilter;
import io.taskgate.store.TaskPruning;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * Deletes the tasks that ended longer ago than their status's retention ({@link
 * RetentionSettings}), with their audit rows: every {@code interval}, on a managed thread (never a
 * worker's), a batch per transaction, those that ended first first, pausing after each full batch
 * as long as it took, so that pruning a large history holds the database at most half the time. In
 * a cluster on PostgreSQL one instance deletes at a time (an advisory lock per batch; an instance
 * that finds it taken leaves the run to the other).
 */
@ApplicationScoped
public class Retention {
  private static final Logger LOG = Logger.getLogger(Retention.class.getName());

  /** The shortest pause after a full batch. */
  static final long MIN_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private final TaskPruning pruning;
  private final InstantSource clock;
  private final Ticker ticker;
  private final Config config;

  // @Resource cannot annotate a constructor parameter: the container's executors stay fields
  @Resource ManagedScheduledExecutorService timers;
  @Resource ManagedExecutorService executor;

  /** How the pruner waits between full batches; tests replace it. */
  LongConsumer pause = Retention::sleep;

  private volatile RetentionSettings settings;
  private volatile Run last;
  private volatile long deletedTotal;
  private LogThrottle warnings;
  private ScheduledFuture<?> job;

  /** For the CDI proxy. */
  protected Retention() {
    this(null, null, null, null);
  }

  @Inject
  Retention(TaskPruning pruning, InstantSource clock, Ticker ticker, Config config) {
    this.pruning = pruning;
    this.clock = clock;
    this.ticker = ticker;
    this.config = config;
  }

  /**
   * Reads the settings and starts pruning every interval, unless every status is kept forever.
   *
   * @throws IllegalArgumentException naming the setting and the value, for a value that is not
   *     valid (the deployment fails)
   */
  public void start() {
    configure();
    if (!settings.ages().isEmpty()) {
      job = OffTimer.every(timers, "retention", settings.interval(), executor, this::prune);
    }
  }

  /** Reads the settings, without starting. */
  void configure() {
    settings = RetentionSettings.read(key -> config.getOptionalValue(key, String.class));
    warnings = new LogThrottle(Duration.ofMinutes(10), ticker::nanos);
  }

  @PreDestroy
  void stop() {
    if (job != null) {
      job.cancel(false);
    }
  }

  /** The settings in force (null before {@link #start}). */
  public RetentionSettings settings() {
    return settings;
  }

  /** The last run, null before the first. */
  public Run last() {
    return last;
  }

  /** Tasks deleted by retention since this instance started. */
  public long deletedTotal() {
    return deletedTotal;
  }

  /**
   * What one run did.
   *
   * @param at when it started
   * @param deleted tasks it deleted
   * @param busy whether it left the work to another instance, which held pruning's lock
   * @param error why it stopped early, null if it did not
   */
  public record Run(Instant at, long deleted, boolean busy, String error) {}

  /** One run: every status with a retention, until none of its tasks is older. */
  public Run prune() {
    RetentionSettings in = settings;
    Instant now = clock.instant();
    long deleted = 0;
    Run run;
    try {
      run = new Run(now, 0, false, null);
      for (Map.Entry<TaskStatus, Duration> age : in.ages().entrySet()) {
        TaskFilter old =
            TaskFilter.of(EnumSet.of(age.getKey())).withChangedBefore(now.minus(age.getValue()));
        while (true) {
          long start = ticker.nanos();
          int n = pruning.delete(old, in.batch(), true);
          if (n == TaskPruning.BUSY) {
            run = new Run(now, deleted, true, null);
            return finish(run);
          }
          deleted += n;
          if (n < in.batch()) {
            break;
          }
          pause.accept(Math.max(MIN_PAUSE_NANOS, ticker.nanos() - start));
        }
      }
      run = new Run(now, deleted, false, null);
    } catch (RuntimeException e) {
      run = new Run(now, deleted, false, String.valueOf(e.getMessage()));
      long held = warnings.admit("prune");
      if (held >= 0) {
        LOG.log(
            Level.WARNING,
            "Taskgate's retention stopped after deleting "
                + deleted
                + " ended task(s); it tries again in "
                + in.interval()
                + LogThrottle.heldBack(held),
            e);
      }
    }
    return finish(run);
  }

  private Run finish(Run run) {
    last = run;
    deletedTotal += run.deleted();
    if (run.deleted() > 0) {
      LOG.fine(() -> "Taskgate's retention deleted " + run.deleted() + " ended task(s)");
    }
    return run;
  }

  private static void sleep(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while pausing between batches", e);
    }
  }
}
