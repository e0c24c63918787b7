package io.taskgate.engine.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StartLeadTest {
  static long ms(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }

  final StartLead lead = new StartLead();

  @Test
  void itStartsAtTheLongestLagBecauseNothingIsKnownAfterABoot() {
    assertThat(lead.nanos()).isEqualTo(StartLead.MAX_LAG_NANOS).isEqualTo(ms(50));
  }

  @Test
  void aShorterClaimMovesItByAnEighthALongerOneAtOnce() {
    lead.claimedAfter(ms(34)); // 50 → 48
    assertThat(lead.nanos()).isEqualTo(ms(48));
    lead.claimedAfter(ms(49)); // longer: at once
    assertThat(lead.nanos()).isEqualTo(ms(49));
  }

  @Test
  void aStallCountsAsTheLongestLagAndQuickClaimsNeverBringItUnderTheLeast() {
    lead.claimedAfter(ms(5_000));
    assertThat(lead.nanos()).isEqualTo(ms(50));
    for (int i = 0; i < 200; i++) {
      lead.claimedAfter(ms(1));
    }
    assertThat(lead.nanos()).isEqualTo(StartLead.MIN_NANOS).isEqualTo(ms(20));
  }
}
