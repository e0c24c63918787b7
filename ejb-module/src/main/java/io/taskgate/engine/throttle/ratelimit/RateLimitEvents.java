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
import io.taskgate.engine.event.Counted;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.event.LogThrottle;
import io.taskgate.engine.event.MinuteCounts.Count;
import io.taskgate.engine.schedule.OffTimer;
import io.taskgate.store.StoredTask;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where the rate-limit gate reports what it did, on the engine's {@link EngineEvents} channel: a
 * {@link Counted} for the history of each task parked, rejected or let through untracked; the
 * events of the API {@link RateLimitDeferred} (aggregated by a {@link DeferralAggregator} over
 * {@link #WINDOW}, off when {@link GateSettings#emitDeferralEvents()} is false), {@link
 * RateLimitFailOpen} (always, with a warning at most once a minute per task type) and {@link
 * RateLimitRejected} (always, with a line at {@code INFO}), which the channel fires to their CDI
 * observers; and a line at debug level ({@code FINE}) for every deferral. Summaries of ended
 * windows are published by a timer every {@link #DRAIN_EVERY}.
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

  private final GateSettings settings;
  private final InstantSource clock;
  private final EngineEvents channel;

  // @Resource cannot annotate a constructor parameter: the container's executors stay fields
  @Resource ManagedScheduledExecutorService timers;
  @Resource ManagedExecutorService executor;

  final DeferralAggregator deferrals = new DeferralAggregator(WINDOW.toNanos());
  private final LogThrottle warnings;

  private ScheduledFuture<?> drainer;

  /** For the CDI proxy. */
  protected RateLimitEvents() {
    this(null, null, null, null);
  }

  /**
   * Reports published on {@code channel}, deferrals windowed by {@code clock}, warnings by {@code
   * ticker}.
   */
  @Inject
  RateLimitEvents(GateSettings settings, InstantSource clock, EngineEvents channel, Ticker ticker) {
    this.settings = settings;
    this.clock = clock;
    this.channel = channel;
    // a lambda, not ticker::nanos: the proxy's constructor passes a null ticker
    this.warnings = new LogThrottle(WARNING_INTERVAL, () -> ticker.nanos());
  }

  @PostConstruct
  void start() {
    drainer = OffTimer.every(timers, "deferral-event drain", DRAIN_EVERY, executor, this::drainDue);
  }

  @PreDestroy
  void stop() {
    if (drainer != null) {
      drainer.cancel(false);
    }
  }

  /** Task {@code task} was parked until {@code slot}, its {@code key}'s next slot. */
  public void deferred(StoredTask task, String key, Instant slot) {
    LOG.log(
        Level.FINE,
        "Rate limit deferred task {0} ({1}) key={2} to {3}",
        new Object[] {task.id(), task.type(), key, slot});
    Instant now = clock.instant();
    channel.publish(new Counted(task.queue(), task.type(), Count.PARKED, now));
    if (!settings.emitDeferralEvents()) {
      return;
    }
    fire(deferrals.record(task.id(), task.type(), key, EpochNanos.of(slot), EpochNanos.of(now)));
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
   * Task {@code task} ran unthrottled because {@code key} could not be tracked; {@code
   * untrackedCount} is the limiter's fail-open count so far.
   */
  public void failedOpen(StoredTask task, String key, long untrackedCount) {
    channel.publish(new Counted(task.queue(), task.type(), Count.FAILED_OPEN, clock.instant()));
    RateLimitFailOpen event = new RateLimitFailOpen(task.type(), key, untrackedCount);
    long held = warnings.admit(task.type());
    if (held >= 0) {
      LOG.warning(
          event.message()
              + ": the limiter tracks as many keys as "
              + GateSettings.MAX_TRACKED_KEYS
              + " allows, so new keys run unthrottled"
              + LogThrottle.heldBack(held));
    }
    channel.publish(event);
  }

  /** Task {@code task} was rejected for good: {@code key}'s {@code slot} was out of reach. */
  public void rejected(
      StoredTask task, String key, Instant slot, RateLimitRejectedException.Reason reason) {
    channel.publish(
        new Counted(
            task.queue(),
            task.type(),
            reason == RateLimitRejectedException.Reason.DISCARDED
                ? Count.REJECTED_DISCARDED
                : Count.REJECTED_BEYOND_HORIZON,
            clock.instant()));
    RateLimitRejected event = new RateLimitRejected(task.id(), task.type(), key, slot, reason);
    LOG.info(event.message());
    channel.publish(event);
  }

  private void fire(List<DeferralReport> reports) {
    for (DeferralReport report : reports) {
      channel.publish(report.toEvent());
    }
  }
}
