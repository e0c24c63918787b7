package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.Recurrence;
import io.taskgate.core.ratelimit.KeySnapshot;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.event.MinuteCounts;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The keyed gate's decisions, in milliseconds of a clock moved by hand: run, park, claim ahead,
 * hold when the parking lot is full, skip past a series' end, reject beyond the horizon, fail open.
 */
class RateLimitGateTest {
  /** 10 per second, one at a time: slots 100 ms apart. */
  static final RateLimitPolicy TEN_A_SECOND =
      RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(1);

  final GateFixture fixture = new GateFixture(TEN_A_SECOND, 3, Duration.ofMillis(100));

  ThrottleDecision acquire(ThrottledAttempt attempt) {
    return fixture.gate.acquire(attempt, fixture.clock.instant());
  }

  /**
   * A replacement limiter that fails open (UNTRACKED) and cannot say what it holds (its stats
   * throw): the task runs, and the fail-open event carries no count rather than failing the gate.
   */
  @Test
  void anUntrackedDecisionFromALimiterWhoseStatsThrowRunsTheTask() {
    KeyedRateLimiter failing =
        new KeyedRateLimiter() {
          @Override
          public RateLimitDecision reserve(
              RateLimitScope scope, String key, Object reservationId, long nowEpochNanos) {
            return RateLimitDecision.untracked();
          }

          @Override
          public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos) {
            return RateLimitDecision.untracked();
          }

          @Override
          public boolean release(RateLimitScope scope, String key, Object reservationId) {
            return false;
          }

          @Override
          public int evictIdle(long nowEpochNanos) {
            return 0;
          }

          @Override
          public Stats stats() {
            throw new IllegalStateException("the replacement cannot count");
          }
        };
    GateFixture replaced = new GateFixture(TEN_A_SECOND, 3, Duration.ofMillis(100), failing);

    ThrottleDecision decision =
        replaced.gate.acquire(replaced.attempt("acme"), replaced.clock.instant());

    assertThat(decision).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(KeyedRateLimiter.statsOf(failing)).isEqualTo(KeyedRateLimiter.Stats.UNKNOWN);
  }

  @Test
  void theFirstTaskOfAKeyRunsNowHoldingItsKey() {
    ThrottledAttempt first = fixture.attempt("acme");
    ThrottleDecision decision = acquire(first);

    assertThat(decision)
        .isEqualTo(
            ThrottleDecision.Run.now(
                new RateLimitGate.GatePermit(fixture.scope, "acme", first.task().id(), null)));
    assertThat(((RateLimitGate.GatePermit) ((ThrottleDecision.Run) decision).permit()).policy())
        .isEqualTo(TEN_A_SECOND);
  }

  @Test
  void theNextIsParkedUntilItsSlotWhileOtherKeysRun() {
    acquire(fixture.attempt("acme"));
    ThrottledAttempt second = fixture.attempt("acme");

    ThrottleDecision parked = acquire(second);
    ThrottleDecision other = acquire(fixture.attempt("globex"));

    assertThat(parked).isInstanceOf(ThrottleDecision.ParkUntil.class);
    Instant slot = ((ThrottleDecision.ParkUntil) parked).until();
    assertThat(Duration.between(GateFixture.T0, slot))
        .isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
    assertThat(fixture.parkingLot.parkedTask(second.task().id()).orElseThrow().slot())
        .isEqualTo(slot);
    assertThat(fixture.deferred.fired).hasSize(1);
    assertThat(other).isInstanceOf(ThrottleDecision.Run.class);
  }

  @Test
  void aParkedTaskComingBackWithinTheClaimAheadIsClaimedToStartAtItsSlotThenRunsAtIt() {
    acquire(fixture.attempt("acme"));
    ThrottledAttempt second = fixture.attempt("acme");
    Instant slot = ((ThrottleDecision.ParkUntil) acquire(second)).until();

    fixture.clock.set(slot.minusMillis(80));
    ThrottleDecision ahead = acquire(second);
    fixture.clock.set(slot);
    ThrottleDecision atSlot = acquire(second);

    assertThat(ahead).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(((ThrottleDecision.Run) ahead).startAt()).isEqualTo(slot);
    assertThat(atSlot).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(((ThrottleDecision.Run) atSlot).startAt()).isNull();
    assertThat(fixture.parkingLot.parkedTask(second.task().id())).isEmpty();
    assertThat(fixture.deferred.fired).hasSize(1); // deferred once, not on every return
    assertThat(parkedInHistory(fixture)).isEqualTo(1);
    assertThat(fixture.notes.pending()).as("one note for the task's audit").isEqualTo(1);
  }

  /** Tasks the history counts as parked in the fixture clock's minute. */
  static long parkedInHistory(GateFixture fixture) {
    return fixture.history.read(fixture.clock.instant(), 1).stream()
        .mapToLong(s -> s.total(MinuteCounts.Count.PARKED))
        .sum();
  }

  @Test
  void aFullParkingLotHoldsTasksThatWouldParkButNotTasksThatRunNow() {
    acquire(fixture.attempt("acme"));
    for (int i = 0; i < 3; i++) {
      assertThat(acquire(fixture.attempt("acme"))).isInstanceOf(ThrottleDecision.ParkUntil.class);
    }

    assertThat(acquire(fixture.attempt("acme"))).isInstanceOf(ThrottleDecision.HoldOnQueue.class);
    assertThat(acquire(fixture.attempt("globex"))).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(fixture.parkingLot.parkedCount()).isEqualTo(3);
  }

  @Test
  void aSlotBeyondTheHorizonIsRejectedWithTheReasonAndTheSlot() {
    GateFixture tight =
        new GateFixture(
            TEN_A_SECOND.withMaxReservationHorizon(Duration.ofMillis(250)),
            100,
            Duration.ofMillis(100));
    ThrottleDecision last = null;
    for (int i = 0; i < 5 && !(last instanceof ThrottleDecision.Reject); i++) {
      last = tight.gate.acquire(tight.attempt("acme"), tight.clock.instant());
    }

    assertThat(last).isInstanceOf(ThrottleDecision.Reject.class);
    ThrottleDecision.Reject reject = (ThrottleDecision.Reject) last;
    assertThat(reject.cause()).isInstanceOf(RateLimitRejectedException.class);
    assertThat(reject.reason()).contains("acme");
    assertThat(reject.slot()).isAfter(GateFixture.T0.plusMillis(250));
    assertThat(tight.rejected.fired).hasSize(1);
    assertThat(tight.history.read(tight.clock.instant(), 1))
        .singleElement()
        .satisfies(
            counts -> {
              assertThat(counts.total(MinuteCounts.Count.REJECTED_BEYOND_HORIZON)).isEqualTo(1);
              assertThat(counts.total(MinuteCounts.Count.REJECTED_DISCARDED)).isZero();
              assertThat(counts.total(MinuteCounts.Count.PARKED)).isEqualTo(2);
            });
  }

  @Test
  void aSeriesWhoseSlotComesAfterItsEndSkipsTheOccurrenceAndGivesUpTheReservation() {
    acquire(fixture.attempt("acme"));
    String endsSoon =
        Recurrence.every(Duration.ofMinutes(1))
            .withRunUntil(GateFixture.T0.plusMillis(50))
            .encode();

    ThrottleDecision decision = acquire(fixture.attempt(UUID.randomUUID(), "acme", endsSoon));

    assertThat(decision).isInstanceOf(ThrottleDecision.SkipOccurrence.class);
    assertThat(((ThrottleDecision.SkipOccurrence) decision).reason()).contains("runUntil");
    assertThat(fixture.parkingLot.parkedCount()).isZero();
  }

  @Test
  void retriesPassUnthrottledWhenThePolicySaysSo() {
    GateFixture lenient =
        new GateFixture(TEN_A_SECOND.withThrottleRetries(false), 3, Duration.ofMillis(100));
    lenient.gate.acquire(lenient.attempt("acme"), lenient.clock.instant());
    ThrottledAttempt retry = lenient.attempt("acme");
    ThrottledAttempt second =
        new ThrottledAttempt(retry.task().withAttempt(1), retry.handler(), retry.payload());

    assertThat(lenient.gate.acquire(second, lenient.clock.instant()))
        .isEqualTo(ThrottleDecision.Run.now(Permit.NOTHING));
  }

  @Test
  void aTaskWithoutAKeyRunsUnthrottled() {
    assertThat(acquire(fixture.attempt(""))).isEqualTo(ThrottleDecision.Run.now(Permit.NOTHING));
  }

  @Test
  void aLimiterThatFailsLetsTheTaskRunKeyedNeverLost() {
    KeyedRateLimiter broken =
        new KeyedRateLimiter() {
          @Override
          public RateLimitDecision reserve(
              RateLimitScope scope, String key, Object reservationId, long nowEpochNanos) {
            throw new IllegalStateException("grid unreachable");
          }

          @Override
          public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos) {
            throw new IllegalStateException("grid unreachable");
          }

          @Override
          public boolean release(RateLimitScope scope, String key, Object reservationId) {
            return false;
          }

          @Override
          public int evictIdle(long nowEpochNanos) {
            return 0;
          }

          @Override
          public KeySnapshot keys(io.taskgate.core.ratelimit.KeyQuery query, long now) {
            return KeySnapshot.UNSUPPORTED;
          }

          @Override
          public Stats stats() {
            return new Stats(0, 0, 0, 0);
          }
        };
    GateFixture failing = new GateFixture(TEN_A_SECOND, 3, Duration.ofMillis(100), broken);

    ThrottledAttempt attempt = failing.attempt("acme");
    ThrottleDecision decision = failing.gate.acquire(attempt, failing.clock.instant());

    assertThat(decision)
        .isEqualTo(
            ThrottleDecision.Run.now(
                new RateLimitGate.GatePermit(failing.scope, "acme", attempt.task().id(), null)));
    assertThat(((RateLimitGate.GatePermit) ((ThrottleDecision.Run) decision).permit()).policy())
        .isEqualTo(TEN_A_SECOND);
  }

  @Test
  void aPermitOfTheGateFreesNothing() {
    ThrottleDecision.Run run = (ThrottleDecision.Run) acquire(fixture.attempt("acme"));

    assertThat(fixture.gate.release(run.permit(), io.taskgate.engine.throttle.AttemptEnd.COMPLETED))
        .isEmpty();
  }
}
