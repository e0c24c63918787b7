package io.taskgate.engine.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.LimiterStats;
import io.taskgate.api.QueueOrder;
import io.taskgate.api.RateLimitExceededException;
import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import io.taskgate.engine.event.MinuteCounts;
import io.taskgate.engine.event.TaskHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Calls over the limit that wait (queue order, queue limit, max wait), answer with a fallback, or
 * meet a limit changed at run time; on a hand-moved timeline. Waiting is shown on asynchronous
 * methods, whose callers never block: the test's thread moves time and runs what became due.
 */
class WaitingCallsTest {

  final Limited limited = new Limited();
  final Api api = new Api();

  /** A bean whose calls are spaced 100 ms apart (GCRA, burst 1). */
  public static class Api {
    final List<String> ran = new ArrayList<>();

    @RateLimited(permits = 10, period = "PT1S", burst = 1, maxWait = "PT1S", queueLimit = 2)
    public CompletionStage<String> oldestFirst(String id) {
      ran.add(id);
      return CompletableFuture.completedFuture(id);
    }

    @RateLimited(
        permits = 10,
        period = "PT1S",
        burst = 1,
        maxWait = "PT1S",
        queueLimit = 2,
        queueOrder = QueueOrder.NEWEST_FIRST)
    public CompletionStage<String> newestFirst(String id) {
      ran.add(id);
      return CompletableFuture.completedFuture(id);
    }

    @RateLimited(permits = 10, period = "PT1S", burst = 3, maxWait = "PT1S")
    public CompletionStage<String> weighed(String id, @io.taskgate.api.RateLimitCost int units) {
      ran.add(id);
      return CompletableFuture.completedFuture(id);
    }

    @RateLimited(permits = 1, period = "PT1S", maxWait = "PT0.15S")
    public CompletionStage<String> shortWait(String id) {
      ran.add(id);
      return CompletableFuture.completedFuture(id);
    }

    @RateLimited(algorithm = LimiterAlgorithm.CONCURRENCY, permits = 1, maxWait = "PT1S")
    public CompletionStage<String> exclusive(CompletableFuture<String> work) {
      return work;
    }

    @RateLimited(permits = 1, period = "PT1M", fallback = "cachedQuote")
    public String quote(@RateLimitKey String tenant) {
      return "fresh quote for " + tenant;
    }

    String cachedQuote(String tenant, RateLimitExceededException refusal) {
      return "cached quote for " + tenant + ", fresh in " + refusal.retryAfter().orElseThrow();
    }

    @RateLimited(permits = 1, period = "PT1M", fallback = "later")
    public CompletionStage<String> quoteAsync(String tenant) {
      return CompletableFuture.completedFuture("fresh");
    }

    public CompletionStage<String> later(String tenant) {
      return CompletableFuture.completedFuture("later for " + tenant);
    }

    @RateLimited(value = "it-changes", permits = 2, period = "PT1M", burst = 2)
    public String changing() {
      return "ok";
    }
  }

  @SuppressWarnings("unchecked")
  private CompletableFuture<String> call(String method, Object... args) throws Exception {
    return (CompletableFuture<String>) limited.call(api, method, args);
  }

  private void advance(long millis) {
    limited.timeline.advance(Duration.ofMillis(millis));
  }

  private static Throwable refusalOf(CompletableFuture<?> call) {
    assertThat(call).isCompletedExceptionally();
    try {
      call.get();
      throw new AssertionError("not refused");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void waitingCallsRunOldestFirstOnePerSlotAndANewcomerBeyondTheQueueIsRefused() throws Exception {
    assertThat(call("oldestFirst", "a")).isCompletedWithValue("a");
    CompletableFuture<String> b = call("oldestFirst", "b");
    CompletableFuture<String> c = call("oldestFirst", "c");
    CompletableFuture<String> d = call("oldestFirst", "d");
    assertThat(b).isNotDone();
    assertThat(c).isNotDone();
    assertThat(refusalOf(d))
        .isInstanceOf(RateLimitExceededException.class)
        .hasMessageContaining("wait queue full");
    assertThat(api.ran).containsExactly("a");

    advance(99);
    assertThat(b).isNotDone();
    advance(1);
    assertThat(b).isCompletedWithValue("b");
    assertThat(c).isNotDone();
    advance(100);
    assertThat(c).isCompletedWithValue("c");
    assertThat(api.ran).containsExactly("a", "b", "c");

    LimiterStats stats = limited.limits.limiters().get(0).stats();
    assertThat(stats.waited()).isEqualTo(2);
    assertThat(stats.waitTime()).isEqualTo(Duration.ofMillis(300)); // b 100 ms, c 200 ms
    assertThat(stats.granted()).isEqualTo(3);
    assertThat(stats.rejected()).isEqualTo(1);
    assertThat(stats.queued()).isZero();
    // and in the per-minute history, under the limiter's name (no queue)
    List<MinuteCounts.SeriesCounts> minute =
        limited.history.read(limited.timeline.clock().instant(), 1);
    assertThat(minute)
        .extracting(MinuteCounts.SeriesCounts::series)
        .containsExactly(new MinuteCounts.Series(TaskHistory.LIMITER, stats.name()));
    assertThat(minute.get(0).total(MinuteCounts.Count.CALL_GRANTED)).isEqualTo(3);
    assertThat(minute.get(0).total(MinuteCounts.Count.CALL_WAITED)).isEqualTo(2);
    assertThat(minute.get(0).total(MinuteCounts.Count.CALL_REFUSED)).isEqualTo(1);
  }

  @Test
  void aWaitingCallOfSeveralPermitsRunsWhenAllOfThemHaveComeBack() throws Exception {
    assertThat(call("weighed", "a", 3)).isCompletedWithValue("a");
    CompletableFuture<String> b = call("weighed", "b", 2);

    advance(199);
    assertThat(b).as("its second permit comes at 200 ms").isNotDone();
    advance(1);
    assertThat(b).isCompletedWithValue("b");
    assertThat(api.ran).containsExactly("a", "b");
  }

  @Test
  void newestFirstServesTheLatestCallAndRefusesTheOldestWhenTheQueueOverflows() throws Exception {
    call("newestFirst", "a");
    CompletableFuture<String> b = call("newestFirst", "b");
    CompletableFuture<String> c = call("newestFirst", "c");
    CompletableFuture<String> d = call("newestFirst", "d");
    assertThat(refusalOf(b)).hasMessageContaining("evicted");
    advance(100);
    assertThat(d).isCompletedWithValue("d");
    assertThat(c).isNotDone();
    advance(100);
    assertThat(c).isCompletedWithValue("c");
    assertThat(api.ran).containsExactly("a", "d", "c");
  }

  @Test
  void aCallThatWaitedItsMaxWaitInVainIsRefusedWithoutRunning() throws Exception {
    call("shortWait", "a");
    CompletableFuture<String> b = call("shortWait", "b");
    advance(149);
    assertThat(b).isNotDone();
    advance(1);
    assertThat(refusalOf(b))
        .isInstanceOf(RateLimitExceededException.class)
        .hasMessageContaining("timed out after PT0.15S");
    assertThat(api.ran).containsExactly("a");
  }

  @Test
  void aConcurrencyPermitFreedByAnAsyncCompletionLetsTheWaitingCallIn() throws Exception {
    CompletableFuture<String> first = new CompletableFuture<>();
    assertThat(call("exclusive", first)).isSameAs(first);
    CompletableFuture<String> secondWork = CompletableFuture.completedFuture("second");
    CompletableFuture<String> second = call("exclusive", secondWork);
    advance(500);
    assertThat(second).isNotDone(); // the first still holds the permit
    first.complete("first");
    advance(0); // the release's nudge runs
    assertThat(second).isCompletedWithValue("second");
  }

  @Test
  void aRefusedCallIsAnsweredByItsFallbackWithTheRefusal() throws Exception {
    assertThat(limited.call(api, "quote", "acme")).isEqualTo("fresh quote for acme");
    assertThat(limited.call(api, "quote", "acme"))
        .isEqualTo("cached quote for acme, fresh in PT1M");
    assertThat(call("quoteAsync", "acme")).isCompletedWithValue("fresh");
    assertThat(call("quoteAsync", "acme")).isCompletedWithValue("later for acme");
  }

  @Test
  void aLimitChangedAtRunTimeAppliesToTheNextCall() throws Exception {
    limited.call(api, "changing");
    limited.call(api, "changing");
    assertThatThrownBy(() -> limited.call(api, "changing"))
        .isInstanceOf(RateLimitExceededException.class);
    NamedLimiter limiter = limited.limits.limiters().get(0);
    limiter.update(limiter.spec().withLimit(5, Duration.ofMinutes(1), 5));
    for (int i = 0; i < 5; i++) {
      assertThat(limited.call(api, "changing")).isEqualTo("ok");
    }
    assertThatThrownBy(() -> limited.call(api, "changing"))
        .isInstanceOf(RateLimitExceededException.class);
    assertThat(limiter.stats().granted()).isEqualTo(7);
  }
}
