package io.taskgate.engine.cluster.grid;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitScope;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** An instance's share of a key's rate while it decides without the grid. */
class RateShareTest {
  static final RateLimitScope TEN_PER_SECOND =
      new RateLimitScope(
          "Sync", RateLimitPolicy.of(10, Duration.ofSeconds(1)).withStartEmpty(true));

  @Test
  void aShareOfOneOrLessIsTheScopeItself() {
    assertThat(RateShare.of(TEN_PER_SECOND, 1)).isSameAs(TEN_PER_SECOND);
    assertThat(RateShare.of(TEN_PER_SECOND, 0)).isSameAs(TEN_PER_SECOND);
  }

  @Test
  void aThirdStretchesThePeriodAndDividesTheBurstKeepingTheRest() {
    RateLimitScope third = RateShare.of(TEN_PER_SECOND, 3);

    assertThat(third.name()).isEqualTo("Sync");
    RateLimitPolicy p = TEN_PER_SECOND.policy();
    assertThat(third.policy())
        .isEqualTo(
            new RateLimitPolicy(
                10,
                Duration.ofSeconds(3),
                3,
                p.throttleRetries(),
                true,
                p.maxReservationHorizon(),
                p.maxInSlotWait(),
                p.overflow()));
    assertThat(RateShare.of(TEN_PER_SECOND, 20).policy().burst()).as("at least 1").isEqualTo(1);
  }

  @Test
  void aShareThatWouldPassTheLongestSpanKeepsThePolicy() {
    RateLimitScope slow =
        new RateLimitScope("Yearly", RateLimitPolicy.of(1, RateLimitPolicy.MAX_SPAN));

    assertThat(RateShare.of(slow, 2)).isSameAs(slow);
  }
}
