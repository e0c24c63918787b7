package io.taskgate.web.monitor;

import io.taskgate.api.RateLimitDeferred;
import io.taskgate.api.RateLimitRejected;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.TaskTransition;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.engine.admin.ClusterViews;
import io.taskgate.engine.admin.EngineMonitor;
import io.taskgate.web.api.EventStream;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Taskgate's MicroProfile Metrics, in the application registry:
 *
 * <ul>
 *   <li>gauges {@value #PARKED}, {@value #HELD}, {@value #TRACKED_KEYS}, {@value #FAIL_OPEN} (the
 *       limiter's fail-open count since the start), {@value #EVENT_CONNECTIONS} and {@value
 *       #EVENTS_DROPPED} (the event stream's);
 *   <li>gauges {@value #GRID_DEGRADED}, {@value #GRID_DEGRADATIONS} and {@value #LOCAL_DECISIONS}
 *       (the data grid limiter's; 0 with local budgets), tagged with the instance's identity;
 *   <li>counters {@value #DEFERRALS} per task type (from the aggregated {@link RateLimitDeferred}
 *       events: a window's summary arrives when it ends, and nothing is counted while {@code
 *       taskgate.rate-limit.emit-deferral-events} is off) and {@value #REJECTIONS} per task type
 *       and reason;
 *   <li>with {@value #TASKS_KEY} on (off by default: it costs the other keys' latency, see the
 *       README): counters {@value #STARTED} and {@value #FINISHED} (per task type, queue and final
 *       status) and timers {@value #DURATION} (an attempt's run time) and {@value #START_DELAY}
 *       (from due to claimed), per task type and queue.
 * </ul>
 *
 * <p>The per-key gauges are {@link TopKeyMetrics}.
 */
@ApplicationScoped
public class TaskgateMetrics {
  private static final Logger LOG = Logger.getLogger(TaskgateMetrics.class.getName());

  static final String PARKED = "taskgate.rate_limit.parked_tasks";
  static final String HELD = "taskgate.rate_limit.held_tasks";
  static final String TRACKED_KEYS = "taskgate.rate_limit.tracked_keys";
  static final String FAIL_OPEN = "taskgate.rate_limit.fail_open";
  static final String DEFERRALS = "taskgate.rate_limit.deferrals";
  static final String REJECTIONS = "taskgate.rate_limit.rejections";
  static final String STARTED = "taskgate.tasks.started";
  static final String FINISHED = "taskgate.tasks.finished";
  static final String DURATION = "taskgate.task.duration";
  static final String START_DELAY = "taskgate.task.start_delay";
  static final String GRID_DEGRADED = "taskgate.rate_limit.grid_degraded";
  static final String GRID_DEGRADATIONS = "taskgate.rate_limit.grid_degradations";
  static final String LOCAL_DECISIONS = "taskgate.rate_limit.local_decisions";
  static final String EVENT_CONNECTIONS = "taskgate.events.connections";
  static final String EVENTS_DROPPED = "taskgate.events.dropped";
  static final String TRANSITIONS_DROPPED = "taskgate.metrics.dropped_transitions";

  /** Config key: whether per-task counters and timers are kept. */
  public static final String TASKS_KEY = "taskgate.metrics.tasks";

  @Inject MetricRegistry registry;
  @Inject Config config;
  @Inject KeyedRateLimiter limiter;
  @Inject EngineMonitor engine;
  @Inject EventStream events;
  @Inject ClusterViews cluster;

  /** A tagged metric: its name and tag values (status may be null), cheap to build and hash. */
  private record Series(String name, String type, String queue, String status) {
    Tag[] tags() {
      return status == null
          ? new Tag[] {new Tag("type", type), new Tag("queue", queue)}
          : new Tag[] {new Tag("type", type), new Tag("queue", queue), new Tag("status", status)};
    }
  }

  private final Map<Series, Counter> taskCounters = new ConcurrentHashMap<>();
  private final Map<Series, Timer> taskTimers = new ConcurrentHashMap<>();
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private Runnable subscription;
  static final int MAX_PENDING = 100_000;
  static final long RECORD_EVERY_MILLIS = 1000;
  private final java.util.concurrent.ConcurrentLinkedQueue<TaskTransition> pending =
      new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final java.util.concurrent.atomic.AtomicInteger pendingCount =
      new java.util.concurrent.atomic.AtomicInteger();
  private final AtomicLong droppedTransitions = new AtomicLong();
  private ScheduledFuture<?> recorder;

  void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
    registry.gauge(
        MetricMetadata.of(PARKED, "Tasks parked until their rate-limit slot", MetricUnits.NONE),
        engine::parkedTasks);
    registry.gauge(
        MetricMetadata.of(
            HELD,
            "Rate-limited tasks held on their queues: the parking lot is full",
            MetricUnits.NONE),
        engine::heldTasks);
    registry.gauge(
        MetricMetadata.of(TRACKED_KEYS, "Keys the rate limiter tracks", MetricUnits.NONE),
        () -> KeyedRateLimiter.statsOf(limiter).trackedKeys());
    registry.gauge(
        MetricMetadata.of(
            FAIL_OPEN,
            "New keys run unthrottled because the key cap was reached",
            MetricUnits.NONE),
        () -> KeyedRateLimiter.statsOf(limiter).untrackedDecisions());
    Tag instance = new Tag("instance", cluster.self());
    registry.gauge(
        MetricMetadata.of(
            GRID_DEGRADED,
            "1 while the data grid does not answer and this instance decides locally at its share"
                + " of each key's rate, else 0",
            MetricUnits.NONE),
        () -> cluster.limiter().degraded() ? 1 : 0,
        instance);
    registry.gauge(
        MetricMetadata.of(
            GRID_DEGRADATIONS, "Times the data grid stopped answering", MetricUnits.NONE),
        () -> cluster.limiter().degradations(),
        instance);
    registry.gauge(
        MetricMetadata.of(
            LOCAL_DECISIONS,
            "Rate-limit decisions taken locally because the data grid did not answer",
            MetricUnits.NONE),
        () -> cluster.limiter().localDecisions(),
        instance);
    // created here, in the application's context: created first by a scrape (on the metrics
    // endpoint's thread, outside the application's naming context), its @Resource executor could
    // not be injected and both gauges would be missing from /metrics
    events.connections();
    registry.gauge(
        MetricMetadata.of(EVENT_CONNECTIONS, "Open /api/events connections", MetricUnits.NONE),
        events::connections);
    registry.gauge(
        MetricMetadata.of(
            EVENTS_DROPPED,
            "Monitoring events dropped: /api/events clients too slow",
            MetricUnits.NONE),
        events::dropped);
    registry.gauge(
        MetricMetadata.of(
            TRANSITIONS_DROPPED,
            "Task transitions left out of the task metrics: more than "
                + MAX_PENDING
                + " waited to be recorded",
            MetricUnits.NONE),
        droppedTransitions::get);
    if (config.getOptionalValue(TASKS_KEY, Boolean.class).orElse(false)) {
      subscription = engine.onTransition(this::onTransition);
      recorder =
          engine.every(
              "task metrics",
              Duration.ofMillis(RECORD_EVERY_MILLIS),
              Duration.ofMillis(RECORD_EVERY_MILLIS),
              this::recordPending);
    }
  }

  @PreDestroy
  void stop() {
    if (subscription != null) {
      subscription.run();
    }
    if (recorder != null) {
      recorder.cancel(false);
    }
  }

  void onDeferred(@Observes RateLimitDeferred event) {
    counter(
            DEFERRALS,
            "Tasks deferred to a later rate-limit slot",
            new Tag("type", event.taskType()))
        .inc(event.deferredCount());
  }

  void onRejected(@Observes RateLimitRejected event) {
    counter(
            REJECTIONS,
            "Tasks rejected for good by their rate limit",
            new Tag("type", event.taskType()),
            new Tag("reason", String.valueOf(event.reason())))
        .inc();
  }

  /**
   * A transition, as the store's writer sees it: only queued here (the thread that wrote is about
   * to run a handler, or to commit the next batch), and recorded in the metrics by {@link
   * #recordPending}, off that thread, every {@value #RECORD_EVERY_MILLIS} ms. Beyond {@value
   * #MAX_PENDING} waiting, transitions are counted as dropped instead.
   */
  private void onTransition(TaskTransition t) {
    if (pendingCount.incrementAndGet() > MAX_PENDING) {
      pendingCount.decrementAndGet();
      droppedTransitions.incrementAndGet();
      return;
    }
    pending.add(t);
  }

  /** Records the transitions queued since the last call. */
  void recordPending() {
    TaskTransition t;
    while ((t = pending.poll()) != null) {
      pendingCount.decrementAndGet();
      try {
        record(t);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "Taskgate could not record the metrics of " + t, e);
      }
    }
  }

  private void record(TaskTransition t) {
    if (t.to() == TaskStatus.IN_PROGRESS) {
      taskCounter(new Series(STARTED, t.taskType(), t.queue(), null), "Task attempts started")
          .inc();
      if (t.elapsed() != null) {
        taskTimer(
                new Series(START_DELAY, t.taskType(), t.queue(), null),
                "From a task's due time to its claim")
            .update(t.elapsed());
      }
      return;
    }
    if (t.from() == TaskStatus.IN_PROGRESS && t.elapsed() != null) {
      taskTimer(new Series(DURATION, t.taskType(), t.queue(), null), "How long task attempts ran")
          .update(t.elapsed());
    }
    if (t.to() == TaskStatus.COMPLETED
        || t.to() == TaskStatus.FAILED
        || t.to() == TaskStatus.CANCELLED) {
      taskCounter(
              new Series(FINISHED, t.taskType(), t.queue(), t.to().name()),
              "Tasks that ended, by final status")
          .inc();
    }
  }

  private Counter taskCounter(Series series, String description) {
    return cached(
        taskCounters,
        series,
        s ->
            registry.counter(MetricMetadata.of(s.name(), description, MetricUnits.NONE), s.tags()));
  }

  private Timer taskTimer(Series series, String description) {
    return cached(
        taskTimers,
        series,
        s ->
            registry.timer(
                MetricMetadata.of(s.name(), description, MetricUnits.NANOSECONDS), s.tags()));
  }

  /** The series' metric, registered on first use (a read first: the common case takes no lock). */
  private static <M> M cached(Map<Series, M> metrics, Series series, Function<Series, M> make) {
    M metric = metrics.get(series);
    return metric != null ? metric : metrics.computeIfAbsent(series, make);
  }

  private Counter counter(String name, String description, Tag... tags) {
    return counters.computeIfAbsent(
        cacheKey(name, tags),
        k -> registry.counter(MetricMetadata.of(name, description, MetricUnits.NONE), tags));
  }

  private static String cacheKey(String name, Tag... tags) {
    StringBuilder key = new StringBuilder(name);
    for (Tag tag : tags) {
      key.append('\0').append(tag.getTagValue());
    }
    return key.toString();
  }
}
