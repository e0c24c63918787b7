package io.taskgate.engine.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.NamedRateLimiter;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A limiter defined by config alone, asked directly as {@code @Limiter("name")} injects it. */
class LimiterHandleTest {

  final Limited limited = new Limited();

  private NamedRateLimiter handle(String name) {
    return new LimiterHandle(limited.limits.named(name, "a test"), limited.ticker);
  }

  @Test
  void aConfigDefinedLimiterGrantsRefusesAndLetsACallWait() {
    limited.config.put("taskgate.limiter.partner.permits", "1");
    limited.config.put("taskgate.limiter.partner.period", "PT1S");
    limited.config.put("taskgate.limiter.partner.max-wait", "PT2S");
    NamedRateLimiter partner = handle("partner");

    assertThat(partner.availablePermits("acme")).isEqualTo(1);
    try (NamedRateLimiter.Permit first = partner.tryAcquire("acme")) {
      assertThat(first.granted()).isTrue();
    }
    assertThat(partner.availablePermits("acme")).isZero();
    NamedRateLimiter.Permit refused = partner.tryAcquire("acme");
    assertThat(refused.granted()).isFalse();
    assertThat(refused.retryAfter()).contains(Duration.ofSeconds(1));
    assertThat(refused.reason()).isPresent();

    CompletableFuture<NamedRateLimiter.Permit> waiting =
        partner.acquire("acme").toCompletableFuture();
    assertThat(waiting).isNotDone();
    limited.timeline.advance(Duration.ofSeconds(1));
    assertThat(waiting).isCompletedWithValueMatching(NamedRateLimiter.Permit::granted);
    assertThat(partner.stats().waited()).isEqualTo(1);
    assertThat(partner.stats().granted()).isEqualTo(2);
    assertThat(partner.stats().rejected()).isEqualTo(1);
  }

  @Test
  void aLimiterDefinedNowhereNamesTheInjectionPoint() {
    assertThatThrownBy(() -> handle("nowhere"))
        .hasMessage(
            "@Limiter(\"nowhere\") at a test: limiter nowhere has no permits: set permits on"
                + " @RateLimited or taskgate.limiter.nowhere.permits");
  }
}
