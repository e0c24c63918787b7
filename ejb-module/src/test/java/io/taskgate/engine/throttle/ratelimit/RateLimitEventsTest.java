package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitDeferred;
import io.taskgate.api.RateLimitFailOpen;
import io.taskgate.api.RateLimitRejected;
import io.taskgate.api.RateLimitRejectedException.Reason;
import io.taskgate.engine.LogCapture;
import io.taskgate.engine.RecordingEvent;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.store.StoredTask;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** What the gate's reports become: log lines and CDI events, deferrals aggregated. */
class RateLimitEventsTest {
  static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
  static final String TYPE = "com.acme.SyncTenantData";

  final AtomicReference<Instant> now = new AtomicReference<>(T0);
  final AtomicLong nanos = new AtomicLong();
  final RecordingEvent<RateLimitDeferred> deferred = new RecordingEvent<>();
  final RecordingEvent<RateLimitFailOpen> failedOpen = new RecordingEvent<>();
  final RecordingEvent<RateLimitRejected> rejected = new RecordingEvent<>();
  final EngineEvents channel = new EngineEvents();
  RateLimitEvents events = events(GateSettings.of(GateSettings.Values.defaults(1000)));

  RateLimitEventsTest() {
    channel.subscribe(RateLimitDeferred.class, deferred::fire);
    channel.subscribe(RateLimitFailOpen.class, failedOpen::fire);
    channel.subscribe(RateLimitRejected.class, rejected::fire);
  }

  RateLimitEvents events(GateSettings settings) {
    return new RateLimitEvents(settings, now::get, channel, nanos::get);
  }

  static UUID task(int n) {
    return new UUID(0, n);
  }

  /** Task {@code n} of {@link #TYPE}, as stored. */
  static StoredTask stored(int n) {
    return StoredTask.queued(task(n), TYPE, "{}", "default", null, T0, null, T0);
  }

  void at(Duration sinceT0) {
    now.set(T0.plus(sinceT0));
  }

  @Test
  void theFirstDeferralOfAKeyIsFiredAtOnceAndTheRestOfItsWindowAsOneSummary() {
    events.deferred(stored(1), "tenant-1", T0.plusSeconds(4));
    at(Duration.ofSeconds(1));
    events.deferred(stored(2), "tenant-1", T0.plusSeconds(8));
    events.deferred(stored(3), "tenant-1", T0.plusSeconds(12));
    events.drainDue();

    assertThat(deferred.fired)
        .containsExactly(
            new RateLimitDeferred(
                task(1),
                TYPE,
                "tenant-1",
                T0.plusSeconds(4),
                1,
                false,
                T0,
                RateLimitEvents.WINDOW));

    at(RateLimitEvents.WINDOW);
    events.drainDue();

    assertThat(deferred.fired)
        .last()
        .isEqualTo(
            new RateLimitDeferred(
                task(3),
                TYPE,
                "tenant-1",
                T0.plusSeconds(12),
                2,
                true,
                T0,
                RateLimitEvents.WINDOW));
    assertThat(deferred.fired.get(1).message())
        .isEqualTo(
            "Rate limit deferred task 00000000-0000-0000-0000-000000000003: key=tenant-1"
                + " slotUtc=2026-11-22T10:00:12Z policy=com.acme.SyncTenantData deferredCount=2");
    assertThat(events.deferrals.openWindows()).isZero();
  }

  @Test
  void everyDeferralIsLoggedAtDebugLevel() {
    try (LogCapture log = new LogCapture(RateLimitEvents.class, Level.FINE)) {
      events.deferred(stored(1), "tenant-1", T0.plusSeconds(4));
      events.deferred(stored(2), "tenant-1", T0.plusSeconds(8));

      assertThat(log.messages(Level.FINE))
          .containsExactly(
              "Rate limit deferred task 00000000-0000-0000-0000-000000000001 ("
                  + TYPE
                  + ") key=tenant-1 to 2026-11-22T10:00:04Z",
              "Rate limit deferred task 00000000-0000-0000-0000-000000000002 ("
                  + TYPE
                  + ") key=tenant-1 to 2026-11-22T10:00:08Z");
    }
  }

  @Test
  void deferralEventsCanBeSwitchedOff() {
    events = events(GateSettings.of(new GateSettings.Values(10, 10, 10, false)));

    events.deferred(stored(1), "tenant-1", T0.plusSeconds(4));
    events.deferred(stored(2), "tenant-1", T0.plusSeconds(8));
    at(RateLimitEvents.WINDOW);
    events.drainDue();

    assertThat(deferred.fired).isEmpty();
    assertThat(events.deferrals.openWindows()).isZero();
  }

  @Test
  void failingOpenAlwaysFiresAndWarnsOncePerTypeAndMinute() {
    events = events(GateSettings.of(new GateSettings.Values(10, 10, 10, false)));
    try (LogCapture log = new LogCapture(RateLimitEvents.class, Level.WARNING)) {
      events.failedOpen(stored(9), "tenant-9", 1);
      events.failedOpen(stored(9), "tenant-10", 2);
      nanos.addAndGet(RateLimitEvents.WARNING_INTERVAL.toNanos());
      events.failedOpen(stored(9), "tenant-11", 3);

      assertThat(failedOpen.fired)
          .containsExactly(
              new RateLimitFailOpen(TYPE, "tenant-9", 1),
              new RateLimitFailOpen(TYPE, "tenant-10", 2),
              new RateLimitFailOpen(TYPE, "tenant-11", 3));
      assertThat(log.messages(Level.WARNING))
          .containsExactly(
              "Rate limit failed open: key=tenant-9 policy="
                  + TYPE
                  + " untrackedCount=1: the limiter tracks as many keys as"
                  + " taskgate.rate-limit.max-tracked-keys allows, so new keys run unthrottled",
              "Rate limit failed open: key=tenant-11 policy="
                  + TYPE
                  + " untrackedCount=3: the limiter tracks as many keys as"
                  + " taskgate.rate-limit.max-tracked-keys allows, so new keys run unthrottled"
                  + " (1 more like this since the last one logged)");
    }
  }

  @Test
  void aRejectionIsFiredAndLogged() {
    try (LogCapture log = new LogCapture(RateLimitEvents.class, Level.INFO)) {
      events.rejected(stored(5), "tenant-1", T0.plusSeconds(7200), Reason.BEYOND_HORIZON);

      assertThat(rejected.fired)
          .containsExactly(
              new RateLimitRejected(
                  task(5), TYPE, "tenant-1", T0.plusSeconds(7200), Reason.BEYOND_HORIZON));
      assertThat(log.messages(Level.INFO)).containsExactly(rejected.fired.get(0).message());
    }
  }
}
