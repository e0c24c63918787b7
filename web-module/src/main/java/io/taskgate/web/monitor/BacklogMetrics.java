package io.taskgate.web.monitor;

import io.taskgate.engine.admin.BacklogViews;
import io.taskgate.engine.admin.EngineMonitor;
import io.taskgate.engine.admin.dto.BacklogView;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The backlog's metrics, read from the database every {@value #REFRESH_KEY} (default {@value
 * #DEFAULT_REFRESH}) off the request threads, the same on every instance: per queue the gauges
 * {@value #QUEUED}, {@value #IN_PROGRESS} and {@value #BACKLOG_AGE} (seconds the longest-waiting
 * due task has waited: parked and paused tasks count, they wait too); for the instances sharing the
 * database {@value #INSTANCES} ({@code state="alive"} or {@code "dead"}) and {@value
 * #DEAD_INSTANCE_TASKS} (tasks still held IN_PROGRESS by dead instances: recovery gives them back
 * within the instance timeout, so a lasting value means it does not). A queue once shown stays, at
 * zero when it has no tasks.
 */
@ApplicationScoped
public class BacklogMetrics {
  private static final Logger LOG = Logger.getLogger(BacklogMetrics.class.getName());

  static final String QUEUED = "taskgate.tasks.queued";
  static final String IN_PROGRESS = "taskgate.tasks.in_progress";
  static final String BACKLOG_AGE = "taskgate.tasks.backlog_age";
  static final String INSTANCES = "taskgate.cluster.instances";
  static final String DEAD_INSTANCE_TASKS = "taskgate.cluster.dead_instance_tasks";

  /** Config key: how often the backlog is read (ISO-8601 duration, at least a second). */
  public static final String REFRESH_KEY = "taskgate.metrics.backlog-refresh";

  static final String DEFAULT_REFRESH = "PT15S";

  @Inject MetricRegistry registry;
  @Inject Config config;
  @Inject BacklogViews backlog;
  @Inject EngineMonitor engine;

  private SettableGauges gauges;
  private ScheduledFuture<?> refresher;

  void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
    gauges = new SettableGauges(registry);
    String text = config.getOptionalValue(REFRESH_KEY, String.class).orElse(DEFAULT_REFRESH);
    Duration refresh;
    try {
      refresh = Duration.parse(text);
    } catch (RuntimeException e) {
      refresh = null;
    }
    if (refresh == null || refresh.compareTo(Duration.ofMillis(100)) < 0) {
      throw new IllegalArgumentException(
          "Configuration "
              + REFRESH_KEY
              + " must be an ISO-8601 duration of at least PT0.1S, was "
              + text);
    }
    refresher = engine.every("backlog metrics refresh", Duration.ZERO, refresh, this::refresh);
  }

  @PreDestroy
  void stop() {
    if (refresher != null) {
      refresher.cancel(false);
    }
  }

  /** Reads the backlog and sets the gauges. */
  void refresh() {
    try {
      BacklogView view = backlog.backlog();
      for (BacklogView.QueueBacklog queue : view.queues()) {
        Tag tag = new Tag("queue", queue.queue());
        gauges.set(QUEUED, "QUEUED tasks of the queue", MetricUnits.NONE, queue.queued(), tag);
        gauges.set(
            IN_PROGRESS,
            "IN_PROGRESS tasks of the queue, on every instance",
            MetricUnits.NONE,
            queue.inProgress(),
            tag);
        gauges.set(
            BACKLOG_AGE,
            "How long the queue's longest-waiting due task has waited",
            MetricUnits.SECONDS,
            queue.age(view.at()).toSeconds(),
            tag);
      }
      gauges.set(
          INSTANCES,
          "Instances sharing the database, by heartbeat",
          MetricUnits.NONE,
          view.instancesAlive(),
          new Tag("state", "alive"));
      gauges.set(
          INSTANCES,
          "Instances sharing the database, by heartbeat",
          MetricUnits.NONE,
          view.instancesDead(),
          new Tag("state", "dead"));
      gauges.set(
          DEAD_INSTANCE_TASKS,
          "Tasks held IN_PROGRESS by instances whose heartbeat stopped",
          MetricUnits.NONE,
          view.deadInstanceTasks());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate could not read its backlog for the metrics; retried", e);
    }
  }
}
