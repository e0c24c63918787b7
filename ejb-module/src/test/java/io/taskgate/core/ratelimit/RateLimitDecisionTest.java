package io.taskgate.core.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RateLimitDecisionTest {
  static final long NOW = EpochNanos.of(Instant.parse("2026-11-22T00:00:00Z"));

  @Test
  void runNowDecisionsAreSharedAndHaveNoSlot() {
    assertThat(RateLimitDecision.runNow()).isSameAs(RateLimitDecision.runNow());
    assertThat(RateLimitDecision.untracked().runsNow()).isTrue();
    assertThat(RateLimitDecision.untracked().slot()).isEmpty();
    assertThat(RateLimitDecision.runNow().rejected()).isFalse();
  }

  @Test
  void slottedDecisionsCarryTheSlotAndTheWait() {
    RateLimitDecision d = RateLimitDecision.deferred(NOW + 4_000_000_000L, NOW);

    assertThat(d.runsNow()).isFalse();
    assertThat(d.slot()).contains(Instant.parse("2026-11-22T00:00:04Z"));
    assertThat(d.retryAfter()).isEqualTo(Duration.ofSeconds(4));
    assertThat(RateLimitDecision.beyondHorizon(NOW + 1, NOW).rejected()).isTrue();
    assertThat(RateLimitDecision.discarded(NOW + 1, NOW).outcome())
        .isEqualTo(Outcome.REJECTED_DISCARD);
  }

  @Test
  void inconsistentDecisionsAreRefused() {
    assertThatThrownBy(() -> new RateLimitDecision(Outcome.RUN_NOW, NOW, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a run-now decision has no slot");
    assertThatThrownBy(() -> RateLimitDecision.deferred(NOW - 1, NOW))
        .hasMessageContaining("DEFERRED decision with slot");
    assertThatThrownBy(() -> new RateLimitDecision(Outcome.DEFERRED, RateLimitDecision.NO_SLOT, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RateLimitDecision(null, 0, 0))
        .hasMessage("outcome must not be null");
  }
}
