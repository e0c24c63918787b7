package io.taskgate.engine.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.QueueOrder;
import io.taskgate.core.limiter.ConcurrencyLimiter;
import io.taskgate.core.limiter.ConcurrencyLimiterOptions;
import io.taskgate.core.limiter.FixedWindowLimiter;
import io.taskgate.core.limiter.FixedWindowLimiterOptions;
import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.core.limiter.RateLimiter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A real scheduler with a settable clock: the limiter only grants once the test moves the clock,
 * and the scheduler retries after the (short) retry-after, so nothing sleeps.
 */
class WaitingRateLimiterTest {

  private static final long WINDOW_MS = 20;
  private static final Duration POLL = Duration.ofSeconds(30);

  private final AtomicLong clock = new AtomicLong();
  private ScheduledExecutorService scheduler;

  @BeforeEach
  void startScheduler() {
    scheduler = Executors.newSingleThreadScheduledExecutor();
  }

  @AfterEach
  void stopScheduler() throws InterruptedException {
    scheduler.shutdownNow();
    assertThat(scheduler.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
  }

  private void advanceMs(long ms) {
    clock.addAndGet(ms * 1_000_000L);
  }

  private static RateLimiter onePerWindow() {
    return new FixedWindowLimiter(new FixedWindowLimiterOptions(1, Duration.ofMillis(WINDOW_MS)));
  }

  private WaitingRateLimiter waiting(RateLimiter limiter, int queueLimit, QueueOrder order) {
    return new WaitingRateLimiter(
        limiter, new WaitingRateLimiterOptions(queueLimit, order, POLL), clock::get, scheduler);
  }

  private static RateLimitLease await(CompletableFuture<RateLimitLease> future) throws Exception {
    return future.get(5, TimeUnit.SECONDS);
  }

  @Test
  void grantsAtOnceWhenPermitsAreAvailable() {
    var waiting = waiting(onePerWindow(), 5, QueueOrder.OLDEST_FIRST);

    CompletableFuture<RateLimitLease> future = waiting.acquireAsync(1);

    assertThat(future).isCompletedWithValueMatching(RateLimitLease::isAcquired);
    assertThat(waiting.queueLength()).isZero();
  }

  @Test
  void aWaiterIsServedOnceTheClockReachesItsRetryAfter() throws Exception {
    var waiting = waiting(onePerWindow(), 5, QueueOrder.OLDEST_FIRST);
    waiting.acquireAsync(1);

    CompletableFuture<RateLimitLease> future = waiting.acquireAsync(1);
    assertThat(future).isNotDone();
    assertThat(waiting.queuedPermits()).isEqualTo(1);

    advanceMs(WINDOW_MS);
    assertThat(await(future).isAcquired()).isTrue();
    assertThat(waiting.queueLength()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"OLDEST_FIRST, a b c", "NEWEST_FIRST, c b a"})
  void waitersAreServedInQueueOrder(QueueOrder order, String expected) throws Exception {
    var waiting = waiting(onePerWindow(), 5, order);
    waiting.acquireAsync(1);
    List<String> served = new CopyOnWriteArrayList<>();
    List<CompletableFuture<RateLimitLease>> futures =
        List.of(waiting.acquireAsync(1), waiting.acquireAsync(1), waiting.acquireAsync(1));
    List<CompletableFuture<Void>> recorded = new ArrayList<>();
    for (int i = 0; i < futures.size(); i++) {
      String name = String.valueOf((char) ('a' + i));
      recorded.add(futures.get(i).thenRun(() -> served.add(name)));
    }

    for (int round = 1; round <= 3; round++) {
      advanceMs(WINDOW_MS);
      CompletableFuture.anyOf(
              recorded.stream().filter(f -> !f.isDone()).toArray(CompletableFuture[]::new))
          .get(5, TimeUnit.SECONDS);
      assertThat(served).hasSize(round); // one per window: the clock, not the scheduler, decides
    }

    assertThat(String.join(" ", served)).isEqualTo(expected);
    assertThat(futures).allSatisfy(f -> assertThat(f.join().isAcquired()).isTrue());
  }

  @Test
  void oldestFirstRefusesANewcomerWhenTheQueueIsFull() {
    var waiting = waiting(onePerWindow(), 2, QueueOrder.OLDEST_FIRST);
    waiting.acquireAsync(1);
    CompletableFuture<RateLimitLease> first = waiting.acquireAsync(1);
    CompletableFuture<RateLimitLease> second = waiting.acquireAsync(1);

    CompletableFuture<RateLimitLease> third = waiting.acquireAsync(1);

    assertThat(third).isDone();
    RateLimitLease refused = third.join();
    assertThat(refused.isAcquired()).isFalse();
    assertThat(refused.reason()).hasValue("wait queue full: 2 of 2 permits queued, 1 requested");
    assertThat(first).isNotDone();
    assertThat(second).isNotDone();
  }

  @Test
  void newestFirstEvictsTheOldestWaitersWhenTheQueueIsFull() throws Exception {
    var waiting = waiting(onePerWindow(), 2, QueueOrder.NEWEST_FIRST);
    waiting.acquireAsync(1);
    CompletableFuture<RateLimitLease> oldest = waiting.acquireAsync(1);
    CompletableFuture<RateLimitLease> middle = waiting.acquireAsync(1);

    CompletableFuture<RateLimitLease> newest = waiting.acquireAsync(1);

    assertThat(oldest).isDone();
    assertThat(oldest.join().isAcquired()).isFalse();
    assertThat(oldest.join().reason()).hasValue("evicted from the wait queue by a newer request");
    assertThat(middle).isNotDone();
    assertThat(newest).isNotDone();
    assertThat(waiting.queuedPermits()).isEqualTo(2);

    advanceMs(WINDOW_MS);
    assertThat(await(newest).isAcquired()).isTrue();
    assertThat(middle).isNotDone();
  }

  @Test
  void aRequestLargerThanTheQueueIsRefusedAtOnce() {
    var limiter =
        new FixedWindowLimiter(new FixedWindowLimiterOptions(3, Duration.ofMillis(WINDOW_MS)));
    var waiting = waiting(limiter, 2, QueueOrder.OLDEST_FIRST);
    waiting.acquireAsync(1);

    RateLimitLease refused = waiting.acquireAsync(3).join();

    assertThat(refused.isAcquired()).isFalse();
    assertThat(refused.reason()).hasValue("3 permits exceed the queue limit of 2");
    assertThat(refused.retryAfter()).hasValue(Duration.ofMillis(WINDOW_MS));
  }

  @Test
  void permitsAboveTheLimitersLimitAreAProgrammingError() {
    var waiting = waiting(onePerWindow(), 5, QueueOrder.OLDEST_FIRST);

    assertThatIllegalArgumentException()
        .isThrownBy(() -> waiting.acquireAsync(2))
        .withMessage("permits must be <= the permit limit 1 of this FixedWindowLimiter, was 2");
  }

  @Test
  void aBlockingAcquireTimesOutAndLeavesTheQueue() throws Exception {
    var waiting = waiting(onePerWindow(), 5, QueueOrder.OLDEST_FIRST);
    waiting.acquireAsync(1);

    RateLimitLease lease = waiting.acquire(1, Duration.ofMillis(30));

    assertThat(lease.isAcquired()).isFalse();
    assertThat(lease.reason()).hasValue("timed out after PT0.03S waiting for permits");
    assertThat(waiting.queueLength()).isZero();
    assertThat(waiting.queuedPermits()).isZero();
  }

  @Test
  void aBlockingAcquireReturnsTheLeaseWhenGrantedInTime() throws Exception {
    var waiting = waiting(onePerWindow(), 5, QueueOrder.OLDEST_FIRST);
    waiting.acquireAsync(1);
    advanceMs(WINDOW_MS);

    assertThat(waiting.acquire(1, Duration.ofSeconds(5)).isAcquired()).isTrue();
  }

  @Test
  void anInterruptedAcquireWithdrawsTheRequest() {
    var waiting = waiting(onePerWindow(), 5, QueueOrder.OLDEST_FIRST);
    waiting.acquireAsync(1);

    Thread.currentThread().interrupt();
    assertThatThrownBy(() -> waiting.acquire(1, Duration.ofSeconds(5)))
        .isInstanceOf(InterruptedException.class);

    assertThat(Thread.interrupted()).isFalse();
    assertThat(waiting.queueLength()).isZero();
  }

  @Test
  void cancellingAWaiterRemovesItAndLetsTheNextOneThrough() throws Exception {
    var waiting = waiting(onePerWindow(), 2, QueueOrder.OLDEST_FIRST);
    waiting.acquireAsync(1);
    CompletableFuture<RateLimitLease> cancelled = waiting.acquireAsync(1);
    CompletableFuture<RateLimitLease> next = waiting.acquireAsync(1);

    assertThat(cancelled.cancel(false)).isTrue();

    assertThat(waiting.queueLength()).isEqualTo(1);
    assertThat(waiting.queuedPermits()).isEqualTo(1);
    assertThat(waiting.acquireAsync(1)).isNotDone(); // the freed queue slot is usable again
    advanceMs(WINDOW_MS);
    assertThat(await(next).isAcquired()).isTrue();
  }

  @Test
  void closingAGrantedLeaseServesTheNextWaiterWithoutPolling() throws Exception {
    var waiting =
        waiting(
            new ConcurrencyLimiter(new ConcurrencyLimiterOptions(1)), 5, QueueOrder.OLDEST_FIRST);
    RateLimitLease held = waiting.acquireAsync(1).join();
    CompletableFuture<RateLimitLease> next = waiting.acquireAsync(1);
    assertThat(next).isNotDone();

    held.close();

    // The poll interval is 30 s: only the release can have woken the waiter this soon.
    RateLimitLease lease = await(next);
    assertThat(lease.isAcquired()).isTrue();
    lease.close();
    lease.close();
    assertThat(waiting.acquireAsync(1).join().isAcquired()).isTrue();
  }

  @Test
  void closeRefusesWaitersAndLaterRequests() {
    var waiting = waiting(onePerWindow(), 5, QueueOrder.OLDEST_FIRST);
    waiting.acquireAsync(1);
    CompletableFuture<RateLimitLease> waiter = waiting.acquireAsync(1);

    waiting.close();

    assertThat(waiter.join().reason()).hasValue("the waiting limiter is closed");
    advanceMs(WINDOW_MS);
    assertThat(waiting.acquireAsync(1).join().reason()).hasValue("the waiting limiter is closed");
  }

  @Test
  void anInstantSourceDrivesTheLimiterInEpochNanoseconds() throws Exception {
    var now = new AtomicReference<>(Instant.parse("2025-01-01T00:00:00.010Z"));
    InstantSource source = now::get;
    var waiting =
        WaitingRateLimiter.withInstantSource(
            onePerWindow(),
            new WaitingRateLimiterOptions(5, QueueOrder.OLDEST_FIRST, POLL),
            source,
            scheduler);

    assertThat(waiting.acquireAsync(1).join().isAcquired()).isTrue();
    RateLimitLease refused = waiting.acquireAsync(0, Duration.ZERO).get(5, TimeUnit.SECONDS);
    assertThat(refused.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("timed out"));

    CompletableFuture<RateLimitLease> next = waiting.acquireAsync(1);
    now.set(Instant.parse("2025-01-01T00:00:00.020Z")); // windows align to wall-clock 20 ms
    assertThat(await(next).isAcquired()).isTrue();
  }

  @Test
  void optionsAreValidated() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new WaitingRateLimiterOptions(-1, QueueOrder.OLDEST_FIRST, POLL))
        .withMessage("queueLimit must be >= 0, was -1");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new WaitingRateLimiterOptions(1, QueueOrder.OLDEST_FIRST, Duration.ZERO))
        .withMessage("pollInterval must be positive, was PT0S");
  }
}
