package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.InvalidTaskException;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.engine.throttle.StartCheck;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.store.ThrottlerStore.RateOverride;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Tasks that cost several units of their key's budget, through the gate: a task waits until all of
 * its units conform and spends them all; the start check counts them too; a task above its key's
 * burst is refused at dispatch, or rejected at the gate when the key's burst was lowered since.
 */
class WeightedCostTest {
  /** 10 a second, burst 5: T = 100 ms, τ = 400 ms. */
  private final GateFixture f =
      new GateFixture(
          RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(5), 1_000, Duration.ZERO);

  @Test
  void aTaskOfSeveralUnitsWaitsUntilAllConformAndSpendsThemAll() {
    assertThat(acquire(f.attempt("acme", 5))).isInstanceOf(ThrottleDecision.Run.class);
    ThrottleDecision three = acquire(f.attempt("acme", 3));
    ThrottleDecision one = acquire(f.attempt("acme", 1));

    // units one by one from the first start s (now, and the lead the gate reserves a start with):
    // 5 at s | s + 100, 200, 300 | s + 400
    Instant threeAt = ((ThrottleDecision.ParkUntil) three).until();
    assertThat(threeAt).isBetween(GateFixture.T0.plusMillis(300), GateFixture.T0.plusMillis(400));
    assertThat(((ThrottleDecision.ParkUntil) one).until()).isEqualTo(threeAt.plusMillis(100));
    assertThat(acquire(f.attempt("globex", 5)))
        .as("another key has its own budget")
        .isInstanceOf(ThrottleDecision.Run.class);
  }

  @Test
  void theStartCheckCountsTheUnitsToo() {
    ThrottleDecision.Run whole = (ThrottleDecision.Run) acquire(f.attempt("acme", 5));
    start(whole, GateFixture.T0);
    ThrottleDecision.Run single = (ThrottleDecision.Run) acquire(f.attempt("acme-2", 1));
    start(single, GateFixture.T0);

    // a task of acme let through a unit too early (as a late start would be) is held back
    StartCheck check =
        f.gate.startOf(
            new RateLimitGate.GatePermit(f.scope, "acme", java.util.UUID.randomUUID(), null, 1),
            java.util.UUID.randomUUID());
    check.open();
    try {
      StartCheck.Hold hold = check.holdUntil(GateFixture.T0.plusMillis(50), null);
      assertThat(hold).as("5 units spent at T0: the next one conforms at 100 ms").isNotNull();
      assertThat(hold.until()).isAfterOrEqualTo(GateFixture.T0.plusMillis(100));
    } finally {
      check.close();
    }
  }

  @Test
  void startsThatCameLateHoldBackTheNextTaskOfSeveralUnitsByAsMuch() {
    ThrottleDecision.Run a = (ThrottleDecision.Run) acquire(f.attempt("acme", 3));
    ThrottleDecision.Run b = (ThrottleDecision.Run) acquire(f.attempt("acme", 2));
    ThrottledAttempt c = f.attempt("acme", 5);
    Instant slot = ((ThrottleDecision.ParkUntil) acquire(c)).until();
    Instant late = GateFixture.T0.plusMillis(200); // both began 200 ms after they were let through
    start(a, late);
    start(b, late.plusMillis(5)); // the chain lets the second 5 ms after the first

    f.clock.set(slot);
    ThrottleDecision.Run atSlot = (ThrottleDecision.Run) acquire(c);
    StartCheck check = f.gate.startOf(atSlot.permit(), c.task().id());
    check.open();
    try {
      StartCheck.Hold hold = check.holdUntil(slot, null);
      assertThat(hold)
          .as("5 units began at " + late + ": the next 5 conform 500 ms later")
          .isNotNull();
      assertThat(hold.until()).isAfterOrEqualTo(late.plusMillis(500));
    } finally {
      check.close();
    }
  }

  @Test
  void aTaskAboveItsKeysBurstIsRefusedAtDispatchNamingTheCostAndTheBurst() {
    RateLimitProvider provider = f.provider();

    assertThatThrownBy(() -> provider.check(f.handler, new GateFixture.Mail("acme", 6), "tasks[2]"))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("(tasks[2])")
        .hasMessageContaining("rateLimitCost() must be between 1 and the burst of")
        .hasMessageContaining("for key acme, 5 (a task costing more could never run), was 6");
    assertThatThrownBy(() -> provider.check(f.handler, new GateFixture.Mail("acme", 0), null))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("was 0");
    provider.check(f.handler, new GateFixture.Mail("acme", 5), null); // the whole burst: fine
  }

  @Test
  void aTaskWhoseKeysBurstWasLoweredBelowItsCostIsRejectedSpendingNothing() {
    f.policyStore.putRateOverride(
        new RateOverride(f.scope.name(), "acme", 10, Duration.ofSeconds(1).toNanos(), 2),
        "alice",
        f.clock.instant());
    f.policies.reload(f.clock.instant());

    ThrottleDecision decision = acquire(f.attempt("acme", 3));

    assertThat(decision).isInstanceOf(ThrottleDecision.Reject.class);
    RateLimitRejectedException rejection =
        (RateLimitRejectedException) ((ThrottleDecision.Reject) decision).cause();
    assertThat(rejection.reason()).isEqualTo(RateLimitRejectedException.Reason.COST_ABOVE_BURST);
    assertThat(rejection.cost()).isEqualTo(3);
    assertThat(rejection.getMessage()).contains("reason=COST_ABOVE_BURST").contains("cost=3");
    assertThat(acquire(f.attempt("acme", 2)))
        .as("nothing was spent")
        .isInstanceOf(ThrottleDecision.Run.class);
  }

  private ThrottleDecision acquire(ThrottledAttempt attempt) {
    return f.gate.acquire(attempt, f.clock.instant());
  }

  private void start(ThrottleDecision.Run run, Instant at) {
    StartCheck check = f.gate.startOf(run.permit(), java.util.UUID.randomUUID());
    check.open();
    try {
      assertThat(check.holdUntil(at, null)).isNull();
      check.starting(at);
      check.entered(at);
    } finally {
      check.close();
    }
  }
}
