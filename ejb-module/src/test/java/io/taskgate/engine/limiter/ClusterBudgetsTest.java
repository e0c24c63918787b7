package io.taskgate.engine.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.QueueOrder;
import io.taskgate.core.limiter.RateLimiter;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import io.taskgate.engine.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A cluster budget decides on the wall clock it is given, which every instance shares, and not on
 * the monotonic readings of its calls, which no two instances share.
 */
class ClusterBudgetsTest {
  static final long HOUR = Duration.ofHours(1).toNanos();

  final SettableClock wall = new SettableClock(Instant.parse("2026-11-26T10:00:00Z"));
  final InMemoryKeyedRateLimiter keyed = new InMemoryKeyedRateLimiter();
  final LimitSpec spec =
      new LimitSpec(
          "partner",
          LimiterAlgorithm.GCRA,
          1,
          Duration.ofSeconds(10),
          1,
          1,
          LimitSpec.DEFAULT_MAX_KEYS,
          Duration.ZERO,
          100,
          QueueOrder.OLDEST_FIRST,
          true);

  @Test
  void twoInstancesWhoseMonotonicClocksDisagreeShareOneBudgetOnTheWallClock() {
    RateLimiter a = new ClusterBudgets(keyed, wall).of(spec, "acme");
    RateLimiter b = new ClusterBudgets(keyed, wall).of(spec, "acme");
    long aNow = 0;
    long bNow = 7 * HOUR; // another process, another origin

    assertThat(a.tryAcquire(1, aNow).isAcquired()).isTrue();
    assertThat(b.tryAcquire(1, bNow).retryAfterNanos()).hasValue(Duration.ofSeconds(10).toNanos());

    // an hour on the instances' monotonic clocks, none on the wall clock: nothing comes back
    assertThat(a.tryAcquire(1, aNow + HOUR).isAcquired()).isFalse();
    assertThat(b.probe(1, bNow + HOUR).isAcquired()).isFalse();

    wall.advance(Duration.ofSeconds(10));
    assertThat(b.probe(1, bNow).isAcquired()).isTrue();
    assertThat(b.tryAcquire(1, bNow).isAcquired()).isTrue();
    assertThat(a.probe(1, aNow).retryAfterNanos()).hasValue(Duration.ofSeconds(10).toNanos());
  }
}
