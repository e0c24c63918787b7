package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StartLeadTest {
  static long ms(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }

  final StartLead lead = new StartLead();

  @Test
  void itStartsAtTheLongestLagBecauseNothingIsKnownAfterABoot() {
    assertThat(lead.nanos())
        .isEqualTo(GateTuning.DEFAULT.startLeadMaxLag().toNanos())
        .isEqualTo(ms(50));
  }

  @Test
  void aShorterClaimMovesItByAnEighthALongerOneAtOnce() {
    lead.claimedAfter(ms(34)); // 50 → 48
    assertThat(lead.nanos()).isEqualTo(ms(48));
    lead.claimedAfter(ms(49)); // longer: at once
    assertThat(lead.nanos()).isEqualTo(ms(49));
  }

  @Test
  void otherTuningMovesTheBounds() {
    StartLead tuned =
        new StartLead(
            new GateTuning(
                Duration.ZERO, Duration.ofMillis(10), Duration.ofMillis(4), Duration.ZERO));
    assertThat(tuned.nanos()).isEqualTo(ms(10));
    for (int i = 0; i < 200; i++) {
      tuned.claimedAfter(ms(1));
    }
    assertThat(tuned.nanos()).isEqualTo(ms(4));
  }

  @Test
  void aTuningWhoseLeastIsAboveItsMostIsRefused() {
    assertThatThrownBy(
            () ->
                new GateTuning(
                    Duration.ZERO, Duration.ofMillis(10), Duration.ofMillis(20), Duration.ZERO))
        .hasMessage("startLeadMin PT0.02S is more than startLeadMaxLag PT0.01S");
  }

  @Test
  void aStallCountsAsTheLongestLagAndQuickClaimsNeverBringItUnderTheLeast() {
    lead.claimedAfter(ms(5_000));
    assertThat(lead.nanos()).isEqualTo(ms(50));
    for (int i = 0; i < 200; i++) {
      lead.claimedAfter(ms(1));
    }
    assertThat(lead.nanos())
        .isEqualTo(GateTuning.DEFAULT.startLeadMin().toNanos())
        .isEqualTo(ms(20));
  }
}
