package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.cluster.grid.GridSettings;
import io.taskgate.engine.cluster.grid.GridState;
import io.taskgate.engine.throttle.StartCheck;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The spacing after a late start, with a clock moved by hand. */
class StartSpacingGuardTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  static final RateLimitPolicy TEN_A_SECOND =
      RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(1);

  static final GateSettings SETTINGS = GateSettings.of(GateSettings.Values.defaults(1000));

  StartSpacingGuard guard = new StartSpacingGuard(SETTINGS, null);

  @Test
  void aStartTooCloseToTheKeysLastWaitsUntilItConformsOtherKeysDoNot() {
    assertThat(guard.holdUntil("mail", "acme", TEN_A_SECOND, T0, null, UUID.randomUUID())).isNull();
    guard.startedNow("mail", "acme", TEN_A_SECOND, T0);

    StartCheck.Hold hold =
        guard.holdUntil("mail", "acme", TEN_A_SECOND, T0.plusMillis(30), null, UUID.randomUUID());

    assertThat(hold).isNotNull();
    Instant at = hold.until();
    assertThat(Duration.between(T0, at)).isBetween(Duration.ofMillis(90), Duration.ofMillis(120));
    assertThat(guard.spacedStarts()).isEqualTo(1);
    assertThat(
            guard.holdUntil(
                "mail", "globex", TEN_A_SECOND, T0.plusMillis(30), null, UUID.randomUUID()))
        .isNull();
  }

  @Test
  void aStartThatKeepsThePolicysSpacingIsNotHeld() {
    guard.holdUntil("mail", "acme", TEN_A_SECOND, T0, null, UUID.randomUUID());
    guard.startedNow("mail", "acme", TEN_A_SECOND, T0);

    assertThat(
            guard.holdUntil(
                "mail", "acme", TEN_A_SECOND, T0.plusMillis(150), null, UUID.randomUUID()))
        .isNull();
    assertThat(guard.spacedStarts()).isZero();
  }

  @Test
  void withTheBudgetsInTheGridNothingIsHeld() {
    guard =
        new StartSpacingGuard(
            SETTINGS,
            GridState.of(
                GridSettings.read(
                    key -> Optional.ofNullable(Map.of(GridSettings.LIMITER, "grid").get(key)))));
    guard.holdUntil("mail", "acme", TEN_A_SECOND, T0, null, UUID.randomUUID());
    guard.startedNow("mail", "acme", TEN_A_SECOND, T0);

    assertThat(
            guard.holdUntil(
                "mail", "acme", TEN_A_SECOND, T0.plusMillis(30), null, UUID.randomUUID()))
        .isNull();
    assertThat(guard.spacedStarts()).isZero();
  }

  @Test
  void theStartWindowOfAKeyIsOneLockWhateverTheCall() {
    assertThat(guard.startWindow("mail", "acme")).isSameAs(guard.startWindow("mail", "acme"));
  }
}
