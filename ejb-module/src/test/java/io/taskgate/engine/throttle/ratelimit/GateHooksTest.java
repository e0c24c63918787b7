package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.engine.throttle.PacingMark;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.StartCheck;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the gate does through the door's hooks: starts, claims ahead, push-backs. */
class GateHooksTest {
  static final RateLimitPolicy TEN_A_SECOND =
      RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(1);

  final GateFixture fixture = new GateFixture(TEN_A_SECOND, 3, Duration.ofMillis(100));

  ThrottleDecision acquire(ThrottledAttempt attempt) {
    return fixture.gate.acquire(attempt, fixture.clock.instant());
  }

  Permit permitOf(ThrottleDecision decision) {
    return ((ThrottleDecision.Run) decision).permit();
  }

  /** Runs the start check as the engine does; returns until when it is held, null if it starts. */
  Instant start(Permit permit, UUID taskId) {
    StartCheck check = fixture.gate.startOf(permit, taskId);
    check.open();
    try {
      StartCheck.Hold hold = check.holdUntil(fixture.clock.instant(), null);
      if (hold == null) {
        check.starting(fixture.clock.instant());
        check.entered(fixture.clock.instant());
      }
      return hold == null ? null : hold.until();
    } finally {
      check.close();
    }
  }

  @Test
  void aTaskParkedForItsSlotStartsHeldUntilItAndItsStartIsLoggedForThePacingView() {
    acquire(fixture.attempt("acme"));
    ThrottledAttempt second = fixture.attempt("acme");
    Instant slot = ((ThrottleDecision.ParkUntil) acquire(second)).until();
    fixture.clock.set(slot);

    Permit permit = permitOf(acquire(second));

    assertThat(permit.heldUntil()).isEqualTo(slot);
    assertThat(start(permit, second.task().id())).isNull();
    assertThat(fixture.pacing.marks(fixture.scope.name(), "acme").orElseThrow())
        .contains(new PacingMark(PacingMark.Kind.STARTED, slot, slot));
  }

  @Test
  void aStartThatWouldComeTooSoonAfterTheKeysLateOneIsHeldBack() {
    ThrottledAttempt first = fixture.attempt("acme");
    Permit firstPermit = permitOf(acquire(first));
    ThrottledAttempt second = fixture.attempt("acme");
    Instant slot = ((ThrottleDecision.ParkUntil) acquire(second)).until();

    fixture.clock.set(slot.minusMillis(10)); // the first starts 90 ms late
    assertThat(start(firstPermit, first.task().id())).isNull();
    fixture.clock.set(slot);
    Instant hold = start(permitOf(acquire(second)), second.task().id());

    assertThat(hold).isNotNull().isAfter(slot.plusMillis(50));
  }

  @Test
  void aTaskClaimedAheadOwnsItsSlotAndLeavesTheLotWhenItStopsWaiting() {
    acquire(fixture.attempt("acme"));
    ThrottledAttempt second = fixture.attempt("acme");
    UUID id = second.task().id();
    Instant slot = ((ThrottleDecision.ParkUntil) acquire(second)).until();
    fixture.clock.set(slot.minusMillis(80));
    ThrottleDecision.Run ahead = (ThrottleDecision.Run) acquire(second);

    fixture.gate.claimedAhead(ahead.permit(), id);

    assertThat(ahead.startAt()).isEqualTo(slot);
    assertThat(fixture.limiter.reservedSlot(fixture.scope, "acme", id))
        .isEqualTo(KeyedRateLimiter.NO_RESERVATION);
    assertThat(fixture.parkingLot.contains(id)).isTrue();
    fixture.gate.leftWaiting(ahead.permit(), id);
    assertThat(fixture.parkingLot.contains(id)).isFalse();
  }

  @Test
  void aPushBackMovesTheKeysScheduleAndHasTheTaskBackNow() {
    ThrottledAttempt first = fixture.attempt("acme");
    Permit permit = permitOf(acquire(first));
    Instant now = fixture.clock.instant();
    Instant until = now.plusSeconds(60);

    Instant back = fixture.gate.pushedBack(permit, first.task().id(), until, now, "429");
    ThrottleDecision next = acquire(fixture.attempt("acme"));

    assertThat(back).isEqualTo(now);
    assertThat(((ThrottleDecision.ParkUntil) next).until()).isAfterOrEqualTo(until);
    assertThat(fixture.pushBacks.last(fixture.scope.name(), "acme", now).until()).isEqualTo(until);
    assertThat(fixture.gate.pushedBack(Permit.NOTHING, first.task().id(), until, now, "429"))
        .isNull();
  }

  @Test
  void aTaskLetThroughWithoutAKeyHasNoStartCheck() {
    assertThat(fixture.gate.startOf(Permit.NOTHING, UUID.randomUUID())).isSameAs(StartCheck.NONE);
  }
}
