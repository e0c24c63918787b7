package io.taskgate.engine.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.taskgate.api.RateLimitExceededException;
import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A limiter whose scope is the cluster keeps its budgets with the engine's keyed limiter: two
 * instances (two harnesses here) sharing one keyed limiter share one budget per key. The data
 * grid's keyed limiter is tested on its own and across two Payara Micro processes (ClusterIT).
 */
class ClusterScopeTest {

  final InMemoryKeyedRateLimiter keyed = new InMemoryKeyedRateLimiter();
  final Limited a = new Limited();
  final Limited b = new Limited();
  final Api api = new Api();

  /** Five calls per ten seconds per tenant, across the cluster. */
  public static class Api {
    @RateLimited(value = "partner", permits = 5, period = "PT10S", burst = 5)
    public String call(@RateLimitKey String tenant) {
      return tenant;
    }
  }

  ClusterScopeTest() {
    for (Limited instance : new Limited[] {a, b}) {
      instance.config.put("taskgate.limiter.partner.scope", "cluster");
      instance.limits.shared = new ClusterBudgets(keyed, a.timeline.clock());
    }
  }

  @Test
  void twoInstancesShareOneBudgetPerKey() throws Exception {
    for (int i = 0; i < 3; i++) {
      a.call(api, "call", "acme");
    }
    b.call(api, "call", "acme");
    b.call(api, "call", "acme");
    RateLimitExceededException sixth =
        catchThrowableOfType(() -> b.call(api, "call", "acme"), RateLimitExceededException.class);
    assertThat(sixth).as("the sixth call, on the other instance").isNotNull();
    assertThat(sixth.retryAfter()).contains(Duration.ofSeconds(2));
    assertThat(
            catchThrowableOfType(
                () -> a.call(api, "call", "acme"), RateLimitExceededException.class))
        .isNotNull();
    assertThat(b.call(api, "call", "globex")).isEqualTo("globex");

    a.timeline.advance(Duration.ofSeconds(2)); // the shared clock: one permit back
    assertThat(b.call(api, "call", "acme")).isEqualTo("acme");
    assertThat(a.limits.find("partner").orElseThrow().stats().granted()).isEqualTo(3);
    assertThat(b.limits.find("partner").orElseThrow().stats().granted()).isEqualTo(4);
  }
}
