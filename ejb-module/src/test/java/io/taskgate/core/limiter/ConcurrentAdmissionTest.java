package io.taskgate.core.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Several threads race for permits at one fixed {@code nowNanos}, so nothing replenishes and the
 * exact number of grants is known: the compare-and-set loops must neither over- nor under-admit.
 */
class ConcurrentAdmissionTest {

  private static final int THREADS = 4;
  private static final int ATTEMPTS_PER_THREAD = 2_000;
  private static final int LIMIT = 500;
  private static final long NOW = 5_000_000L;
  private static final Duration SECOND = Duration.ofSeconds(1);

  private ExecutorService pool;

  @BeforeEach
  void startPool() {
    pool = Executors.newFixedThreadPool(THREADS);
  }

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  static Stream<Arguments> limiters() {
    return Stream.of(
        named(
            "token bucket",
            () -> new TokenBucketLimiter(new TokenBucketLimiterOptions(LIMIT, 1, SECOND))),
        named("gcra", () -> new GcraLimiter(new GcraLimiterOptions(1, SECOND, LIMIT))),
        named(
            "fixed window",
            () -> new FixedWindowLimiter(new FixedWindowLimiterOptions(LIMIT, SECOND))),
        named(
            "sliding window",
            () -> new SlidingWindowLimiter(new SlidingWindowLimiterOptions(LIMIT, SECOND, 10))),
        named(
            "sliding log",
            () -> new SlidingLogLimiter(new SlidingLogLimiterOptions(LIMIT, SECOND))),
        named(
            "concurrency, never released",
            () -> new ConcurrencyLimiter(new ConcurrencyLimiterOptions(LIMIT))),
        named(
            "chained",
            () ->
                ChainedLimiter.of(
                    new GcraLimiter(new GcraLimiterOptions(1, SECOND, LIMIT)),
                    new SlidingLogLimiter(new SlidingLogLimiterOptions(LIMIT, SECOND)))),
        named(
            "partition view",
            () ->
                new PartitionedLimiter<String>(
                        key -> new FixedWindowLimiter(new FixedWindowLimiterOptions(LIMIT, SECOND)),
                        4)
                    .partition("tenant")));
  }

  private static Arguments named(String name, Supplier<RateLimiter> factory) {
    return Arguments.of(name, factory);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limiters")
  void grantsExactlyTheLimitUnderContention(String name, Supplier<RateLimiter> factory)
      throws Exception {
    RateLimiter limiter = factory.get();
    AtomicInteger granted = new AtomicInteger();

    race(
        () -> {
          for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
            if (limiter.tryAcquire(1 + i % 2, NOW).isAcquired()) {
              granted.addAndGet(1 + i % 2);
            }
          }
          return null;
        });

    // Every thread keeps asking for single permits long after the limit is spent, so a missed
    // permit would have been taken: exactly the limit is granted, never more.
    assertThat(granted.get()).isEqualTo(LIMIT);
    assertThat(limiter.tryAcquire(1, NOW).isAcquired()).isFalse();
  }

  @Test
  void concurrencyLeasesNeverOverlapBeyondTheLimit() throws Exception {
    int limit = 3;
    var limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions(limit));
    AtomicInteger holding = new AtomicInteger();
    AtomicInteger maxHolding = new AtomicInteger();
    AtomicInteger grants = new AtomicInteger();

    race(
        () -> {
          for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
            try (RateLimitLease lease = limiter.tryAcquire(1, NOW)) {
              if (lease.isAcquired()) {
                grants.incrementAndGet();
                int now = holding.incrementAndGet();
                maxHolding.accumulateAndGet(now, Math::max);
                holding.decrementAndGet();
              }
            }
          }
          return null;
        });

    assertThat(maxHolding.get()).isBetween(1, limit);
    assertThat(grants.get()).isPositive();
    assertThat(limiter.isIdle(NOW)).isTrue();
    assertThat(limiter.availablePermits(NOW)).isEqualTo(limit);
  }

  private void race(Callable<Void> body) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Void>> results = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      results.add(
          pool.submit(
              () -> {
                start.await();
                return body.call();
              }));
    }
    start.countDown();
    for (Future<Void> result : results) {
      result.get(30, TimeUnit.SECONDS);
    }
  }
}
