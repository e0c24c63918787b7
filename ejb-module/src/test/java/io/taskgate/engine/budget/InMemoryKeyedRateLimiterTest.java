package io.taskgate.engine.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import io.taskgate.core.ratelimit.RateLimitScope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InMemoryKeyedRateLimiterTest {
  static final RateLimitScope SCOPE =
      new RateLimitScope("SyncTenantData", RateLimitPolicy.of(15, Duration.ofMinutes(1)));
  static final long NOW = 1_800_000_000_000_000_000L;

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 64})
  void twoThreadsOnOneKeyNeverGetMoreThanTheBurstAndGetDistinctSlots(int stripes) throws Exception {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter(1_000, stripes);
    ConcurrentLinkedQueue<RateLimitDecision> decisions = new ConcurrentLinkedQueue<>();
    int perThread = 5_000;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    decisions.add(limiter.reserve(SCOPE, "tenant", thread + "-" + i, NOW));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    long runNow = decisions.stream().filter(d -> d.outcome() == Outcome.RUN_NOW).count();
    List<Long> deferredSlots =
        decisions.stream()
            .filter(d -> d.outcome() == Outcome.DEFERRED)
            .map(RateLimitDecision::slotEpochNanos)
            .toList();
    long rejected = decisions.stream().filter(RateLimitDecision::rejected).count();
    // 15 now; slots every 4 s up to the 1-hour horizon: 900 of them; the rest rejected.
    assertThat(runNow).isEqualTo(15);
    assertThat(deferredSlots).hasSize(900).doesNotHaveDuplicates();
    assertThat(rejected).isEqualTo(2 * perThread - 915);
    assertThat(limiter.stats()).isEqualTo(new KeyedRateLimiter.Stats(1, 900, 0, 1_000));
  }

  @Test
  void manyKeysAcrossStripesKeepTheirOwnBudgets() {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter();
    RateLimitScope strict =
        new RateLimitScope("T", RateLimitPolicy.of(1, Duration.ofSeconds(1)).withBurst(1));
    for (int i = 0; i < 5_000; i++) {
      assertThat(limiter.reserve(strict, "k" + i, null, NOW).outcome()).isEqualTo(Outcome.RUN_NOW);
    }
    for (int i = 0; i < 5_000; i++) {
      assertThat(limiter.peek(strict, "k" + i, NOW).retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }
    assertThat(limiter.evictIdle(NOW + 999_999_999)).isZero();
    assertThat(limiter.evictIdle(NOW + 1_000_000_000)).isEqualTo(5_000);
    assertThat(limiter.stats().trackedKeys()).isZero();
  }

  @Test
  void theKeyCapIsSharedByAllStripes() {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter(100, 64);
    for (int i = 0; i < 150; i++) {
      limiter.reserve(SCOPE, "k" + i, null, NOW);
    }

    assertThat(limiter.stats().trackedKeys()).isEqualTo(100);
    assertThat(limiter.stats().untrackedDecisions()).isEqualTo(50);
  }

  @Test
  void releaseAndInstantOverloadsWork() {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter();
    RateLimitScope one = new RateLimitScope("T", SCOPE.policy().withBurst(1));
    Instant now = Instant.parse("2026-11-22T00:00:00Z");
    limiter.reserve(one, "k", "a", now);

    RateLimitDecision parked = limiter.reserve(one, "k", "b", now);

    assertThat(parked.slot()).contains(now.plusSeconds(4));
    assertThat(limiter.release(one, "k", "b")).isTrue();
    assertThat(limiter.stats().pendingReservations()).isZero();
  }

  @Test
  void invalidConstructionIsRefused() {
    assertThatThrownBy(() -> new InMemoryKeyedRateLimiter(100, 3))
        .hasMessage("stripes must be a power of two from 1 to 1024, was 3");
    assertThatThrownBy(() -> new InMemoryKeyedRateLimiter(0))
        .hasMessage("maxTrackedKeys must be at least 1, was 0");
  }
}
