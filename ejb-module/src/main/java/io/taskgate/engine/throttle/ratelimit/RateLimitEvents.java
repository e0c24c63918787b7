package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.api.RateLimitDeferred;
import io.taskgate.api.RateLimitFailOpen;
import io.taskgate.api.RateLimitRejected;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.core.ratelimit.DeferralAggregator;
import io.taskgate.core.ratelimit.DeferralReport;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.event.LogThrottle;
import io.taskgate.engine.schedule.OffTimer;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where the rate-limit gate reports what it did: a line at debug level ({@code FINE}) for every
 * deferral, the CDI events {@link RateLimitDeferred} (aggregated by a {@link DeferralAggregator}
 * over {@link #WINDOW}, off when {@link GateSettings#emitDeferralEvents()} is false), {@link
 * RateLimitFailOpen} (always, with a warning at most once a minute per task type) and {@link
 * RateLimitRejected} (always). Summaries of ended windows are fired by a timer every {@link
 * #DRAIN_EVERY}. An observer that throws is logged and ignored: reporting never changes what
 * happens to a task.
 */
@ApplicationScoped
public class RateLimitEvents {
  private static final Logger LOG = Logger.getLogger(RateLimitEvents.class.getName());

  /** The aggregation window of deferral events, per key. */
  public static final Duration WINDOW = Duration.ofMinutes(1);

  /** How often summaries of ended windows are looked for. */
  static final Duration DRAIN_EVERY = Duration.ofSeconds(1);

  /** At most one fail-open warning per task type this often. */
  static final Duration WARNING_INTERVAL = Duration.ofMinutes(1);

  @Inject GateSettings settings;
  @Inject InstantSource clock;
  @Inject Event<RateLimitDeferred> deferredEvents;
  @Inject Event<RateLimitFailOpen> failOpenEvents;
  @Inject Event<RateLimitRejected> rejectedEvents;
  @Inject Ticker ticker;
  @Resource ManagedScheduledExecutorService timers;
  @Resource ManagedExecutorService executor;

  final DeferralAggregator deferrals = new DeferralAggregator(WINDOW.toNanos());
  LogThrottle warnings = new LogThrottle(WARNING_INTERVAL, () -> ticker.nanos());

  private ScheduledFuture<?> drainer;

  @PostConstruct
  void start() {
    long every = DRAIN_EVERY.toNanos();
    drainer =
        timers.scheduleWithFixedDelay(
            new OffTimer("deferral-event drain", executor, this::drainDue),
            every,
            every,
            TimeUnit.NANOSECONDS);
  }

  @PreDestroy
  void stop() {
    if (drainer != null) {
      drainer.cancel(false);
    }
  }

  /** Task {@code taskId} of {@code taskType} was deferred to {@code slot}, its key's next slot. */
  public void deferred(UUID taskId, String taskType, String key, Instant slot) {
    LOG.log(
        Level.FINE,
        "Rate limit deferred task {0} ({1}) key={2} to {3}",
        new Object[] {taskId, taskType, key, slot});
    if (!settings.emitDeferralEvents()) {
      return;
    }
    fire(
        deferrals.record(
            taskId, taskType, key, EpochNanos.of(slot), EpochNanos.of(clock.instant())));
  }

  /** Fires the summaries of the deferral windows that have ended. The timer calls it. */
  void drainDue() {
    try {
      fire(deferrals.drain(EpochNanos.of(clock.instant())));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate could not report rate-limit deferrals; retried", e);
    }
  }

  /**
   * A task of {@code taskType} ran unthrottled because {@code key} could not be tracked; {@code
   * untrackedCount} is the limiter's fail-open count so far.
   */
  public void failedOpen(String taskType, String key, long untrackedCount) {
    RateLimitFailOpen event = new RateLimitFailOpen(taskType, key, untrackedCount);
    long held = warnings.admit(taskType);
    if (held >= 0) {
      LOG.warning(
          event.message()
              + ": the limiter tracks as many keys as "
              + GateSettings.MAX_TRACKED_KEYS
              + " allows, so new keys run unthrottled"
              + LogThrottle.heldBack(held));
    }
    fire(failOpenEvents, event);
  }

  /** Task {@code taskId} of {@code taskType} was rejected for good. */
  public void rejected(
      UUID taskId,
      String taskType,
      String key,
      Instant slot,
      RateLimitRejectedException.Reason reason) {
    RateLimitRejected event = new RateLimitRejected(taskId, taskType, key, slot, reason);
    LOG.info(event.message());
    fire(rejectedEvents, event);
  }

  private void fire(List<DeferralReport> reports) {
    for (DeferralReport report : reports) {
      fire(
          deferredEvents,
          new RateLimitDeferred(
              report.taskId(),
              report.scope(),
              report.key(),
              EpochNanos.toInstant(report.slotEpochNanos()),
              report.deferredCount(),
              report.summary(),
              EpochNanos.toInstant(report.windowStartEpochNanos()),
              Duration.ofNanos(report.windowNanos())));
    }
  }

  private static <T> void fire(Event<T> events, T event) {
    try {
      events.fire(event);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "An observer of " + event + " threw; ignored", e);
    }
  }
}
