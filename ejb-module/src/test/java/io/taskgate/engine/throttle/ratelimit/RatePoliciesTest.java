package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.store.ThrottlerStore.RateOverride;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Rate limits changed at run time: for the next reservation, per type and per key. */
class RatePoliciesTest {
  private final GateFixture f =
      new GateFixture(
          RateLimitPolicy.of(1, Duration.ofSeconds(1)).withBurst(1), 1_000, Duration.ZERO);

  private ThrottleDecision decide(String tenant) {
    return f.gate.acquire(f.attempt(tenant), f.clock.instant());
  }

  private void change(String key, int permits, int burst) {
    f.policyStore.putRateOverride(
        new RateOverride(f.scope.name(), key, permits, Duration.ofSeconds(1).toNanos(), burst),
        "alice",
        f.clock.instant());
    f.policies.reload(f.clock.instant());
  }

  @Test
  void aKeysChangeLetsItsNextReservationsUseTheNewRateWhileOtherKeysKeepTheAnnotation() {
    change("vip", 10, 5);

    for (int i = 0; i < 5; i++) {
      assertThat(decide("vip")).as("vip's start %d", i).isInstanceOf(ThrottleDecision.Run.class);
    }
    assertThat(decide("vip")).isInstanceOf(ThrottleDecision.ParkUntil.class);
    assertThat(decide("other")).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(decide("other")).isInstanceOf(ThrottleDecision.ParkUntil.class);
  }

  @Test
  void aTypesChangeAppliesToEveryKeyWithoutOneOfItsOwnAndResetGoesBackToTheAnnotation() {
    change(null, 10, 3);

    for (int i = 0; i < 3; i++) {
      assertThat(decide("a")).isInstanceOf(ThrottleDecision.Run.class);
    }
    ThrottleDecision fourth = decide("a");
    assertThat(fourth).isInstanceOf(ThrottleDecision.ParkUntil.class);
    assertThat(((ThrottleDecision.ParkUntil) fourth).until())
        .as("spaced at the new rate: 100 ms, not 1 s")
        .isBefore(f.clock.instant().plusMillis(500));

    f.policyStore.removeRateOverride(f.scope.name(), null, "alice", f.clock.instant());
    f.policies.reload(f.clock.instant());
    assertThat(decide("b")).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(decide("b")).isInstanceOf(ThrottleDecision.ParkUntil.class);
    assertThat(f.policyStore.changes(10))
        .extracting(c -> c.kind().label() + " " + c.id() + ": " + c.before() + " -> " + c.after())
        .containsExactly(
            "rate-limit Mail: permits=10 period=PT1S burst=3 -> null",
            "rate-limit Mail: null -> permits=10 period=PT1S burst=3");
  }

  @Test
  void aChangeMadeByAnotherInstanceArrivesWithinTwoSeconds() {
    f.policies.reload(f.clock.instant());
    // stored by another instance: this one has not reloaded
    f.policyStore.putRateOverride(
        new RateOverride(f.scope.name(), null, 10, Duration.ofSeconds(1).toNanos(), 5),
        "bob",
        f.clock.instant());
    assertThat(decide("c")).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(decide("c"))
        .as("still the annotation's rate")
        .isInstanceOf(ThrottleDecision.ParkUntil.class);

    f.clock.advance(Duration.ofMillis(2_100));

    assertThat(decide("d")).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(decide("d"))
        .as("the other instance's change")
        .isInstanceOf(ThrottleDecision.Run.class);
  }

  @Test
  void aStoredChangeOutsideTheRangesIsIgnoredAndTheAnnotationApplies() {
    f.policyStore.putRateOverride(
        new RateOverride(f.scope.name(), "vip", Integer.MAX_VALUE, 1, 1), "old", f.clock.instant());
    f.policies.reload(f.clock.instant());

    assertThat(decide("vip")).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(decide("vip"))
        .as("the annotation's 1 a second, not 2^31-1 a nanosecond")
        .isInstanceOf(ThrottleDecision.ParkUntil.class);
  }
}
