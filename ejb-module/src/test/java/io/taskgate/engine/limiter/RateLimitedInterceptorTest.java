package io.taskgate.engine.limiter;

import static io.taskgate.api.LimiterAlgorithm.CONCURRENCY;
import static io.taskgate.api.LimiterAlgorithm.FIXED_WINDOW;
import static io.taskgate.api.LimiterAlgorithm.SLIDING_LOG;
import static io.taskgate.api.LimiterAlgorithm.SLIDING_WINDOW;
import static io.taskgate.api.LimiterAlgorithm.TOKEN_BUCKET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.taskgate.api.LimiterStats;
import io.taskgate.api.RateLimitExceededException;
import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import io.taskgate.engine.event.MinuteCounts;
import io.taskgate.engine.event.TaskHistory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Each algorithm's contract as a caller of a {@code @RateLimited} method meets it: the real
 * interceptor and limiters on a hand-moved ticker.
 */
class RateLimitedInterceptorTest {

  final Limited limited = new Limited();
  final Api api = new Api();

  public record Order(String tenant, int lines) {}

  /** A bean with one method per case. */
  public static class Api {
    @RateLimited(algorithm = FIXED_WINDOW, permits = 5, period = "PT1S")
    public String fixed(@RateLimitKey String user) {
      return "fixed " + user;
    }

    @RateLimited(permits = 10, period = "PT1S", burst = 3)
    public String gcra() {
      return "gcra";
    }

    @RateLimited(permits = 20, period = "PT1S")
    public String gcraDefault() {
      return "gcra, burst not set";
    }

    @RateLimited(algorithm = TOKEN_BUCKET, permits = 4, period = "PT1S")
    public String bucketDefault() {
      return "bucket, burst not set";
    }

    @RateLimited(permits = 5, period = "PT1S", burst = 5, key = "#{user}")
    public String gcraPerUser(String user) {
      return user;
    }

    @RateLimited(algorithm = TOKEN_BUCKET, permits = 2, period = "PT1S", burst = 4)
    public String bucket() {
      return "bucket";
    }

    @RateLimited(algorithm = SLIDING_WINDOW, permits = 4, period = "PT1S")
    public String sliding() {
      return "sliding";
    }

    @RateLimited(algorithm = SLIDING_LOG, permits = 3, period = "PT1S")
    public String log() {
      return "log";
    }

    @RateLimited(algorithm = CONCURRENCY, permits = 1)
    public String exclusive(boolean fail) {
      if (fail) {
        throw new IllegalStateException("the call failed");
      }
      return "exclusive";
    }

    @RateLimited(algorithm = CONCURRENCY, permits = 1)
    public CompletionStage<String> exclusiveLater(CompletableFuture<String> result) {
      return result;
    }

    @RateLimited(permits = 1, period = "PT1M", key = "#{order.tenant}")
    public String order(Order order) {
      return "order of " + order.tenant();
    }

    @RateLimited(permits = 1, period = "PT1M", key = RateLimited.CALLER)
    public String mine() {
      return "mine";
    }

    @RateLimited("partner")
    public String partnerA() {
      return "a";
    }

    @RateLimited("partner")
    public String partnerB() {
      return "b";
    }

    @RateLimited(permits = 2, period = "PT1M")
    public String tunable() {
      return "tunable";
    }

    @RateLimited(permits = 1, period = "PT1H", key = "#{user}")
    public String perUser(String user) {
      return user;
    }

    @RateLimited(value = "per-user", permits = 2, period = "PT1M", burst = 2, key = "#{user}")
    @RateLimited(value = "everybody", permits = 3, period = "PT1M", burst = 3)
    public String chained(String user) {
      return user;
    }
  }

  private Object call(String method, Object... args) throws Exception {
    return limited.call(api, method, args);
  }

  private RateLimitExceededException refused(String method, Object... args) {
    return catchThrowableOfType(() -> call(method, args), RateLimitExceededException.class);
  }

  private LimiterStats stats(String method) {
    return limited.limits.find(Api.class.getName() + "#" + method).orElseThrow().stats();
  }

  private void advance(long millis) {
    limited.timeline.advance(Duration.ofMillis(millis));
  }

  @Test
  void aFixedWindowLetsExactlyItsPermitsThroughPerWindowPerKey() throws Exception {
    advance(200); // 200 ms into the first window
    for (int i = 0; i < 5; i++) {
      assertThat(call("fixed", "alice")).isEqualTo("fixed alice");
    }
    RateLimitExceededException sixth = refused("fixed", "alice");
    assertThat(sixth).isNotNull();
    assertThat(sixth.limiter()).isEqualTo(Api.class.getName() + "#fixed");
    assertThat(sixth.key()).isEqualTo("alice");
    assertThat(sixth.retryAfter()).contains(Duration.ofMillis(800));
    assertThat(sixth.getMessage())
        .isEqualTo(
            "Rate limit exceeded: limiter="
                + Api.class.getName()
                + "#fixed key=alice retryAfter=PT0.8S reason="
                + sixth.reason());

    assertThat(call("fixed", "bob")).isEqualTo("fixed bob"); // another key is unaffected

    advance(799);
    assertThat(refused("fixed", "alice")).isNotNull();
    advance(1);
    for (int i = 0; i < 5; i++) {
      call("fixed", "alice");
    }
    assertThat(refused("fixed", "alice")).isNotNull();
  }

  @Test
  void gcraLetsItsBurstThroughThenOneCallPerEmissionInterval() throws Exception {
    for (int i = 0; i < 3; i++) {
      call("gcra");
    }
    assertThat(refused("gcra").retryAfter()).contains(Duration.ofMillis(100));
    advance(60);
    assertThat(refused("gcra").retryAfter()).contains(Duration.ofMillis(40));
    advance(40);
    call("gcra");
    assertThat(refused("gcra").retryAfter()).contains(Duration.ofMillis(100));
  }

  /**
   * A GCRA limiter without a burst spreads its calls evenly (seed 003: without a burst the
   * executions are smeared over the period): 20 per second is one call every 50 ms, never 20 at
   * once, however long it was idle.
   */
  @Test
  void gcraWithoutABurstSpacesItsCallsEvenlyEvenAfterAnIdleSpell() throws Exception {
    call("gcraDefault");
    assertThat(refused("gcraDefault").retryAfter()).contains(Duration.ofMillis(50));
    advance(50);
    call("gcraDefault");
    assertThat(refused("gcraDefault")).isNotNull();
    advance(60_000); // idle for a minute: still one call, no saved-up budget
    call("gcraDefault");
    assertThat(refused("gcraDefault").retryAfter()).contains(Duration.ofMillis(50));
    LimiterStats stats = stats("gcraDefault");
    assertThat(stats.burst()).isEqualTo(1);
    assertThat(stats.permits()).isEqualTo(20);
  }

  /** A token bucket without a burst is a full bucket of {@code permits}. */
  @Test
  void aTokenBucketWithoutABurstHoldsItsPermits() throws Exception {
    for (int i = 0; i < 4; i++) {
      call("bucketDefault");
    }
    assertThat(refused("bucketDefault").retryAfter()).contains(Duration.ofMillis(250));
    assertThat(stats("bucketDefault").burst()).isEqualTo(4);
  }

  @Test
  void aTokenBucketEmptiesItsCapacityAndRefillsAtItsRate() throws Exception {
    for (int i = 0; i < 4; i++) {
      call("bucket");
    }
    assertThat(refused("bucket").retryAfter()).contains(Duration.ofMillis(500));
    advance(1000); // two tokens back
    call("bucket");
    call("bucket");
    assertThat(refused("bucket")).isNotNull();
  }

  @Test
  void aSlidingWindowCountsThePreviousSegmentsOfItsWindow() throws Exception {
    for (int i = 0; i < 4; i++) {
      call("sliding");
    }
    assertThat(refused("sliding")).isNotNull();
    advance(900);
    assertThat(refused("sliding")).isNotNull(); // the four are still within the window
    advance(100);
    for (int i = 0; i < 4; i++) {
      call("sliding");
    }
    assertThat(refused("sliding")).isNotNull();
  }

  @Test
  void aSlidingLogNeverLetsMoreThanItsPermitsIntoAnyWindow() throws Exception {
    call("log");
    advance(400);
    call("log");
    call("log");
    RateLimitExceededException fourth = refused("log");
    assertThat(fourth.retryAfter()).contains(Duration.ofMillis(600)); // when the first one leaves
    advance(600);
    call("log");
    assertThat(refused("log").retryAfter()).contains(Duration.ofMillis(400));
  }

  @Test
  void aConcurrencyPermitIsReleasedWhenTheCallEndsEvenByAnException() throws Exception {
    assertThatThrownBy(() -> call("exclusive", true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the call failed");
    assertThat(call("exclusive", false)).isEqualTo("exclusive");
    assertThat(call("exclusive", false)).isEqualTo("exclusive");
  }

  @Test
  void anAsyncMethodHoldsItsConcurrencyPermitUntilItsStageCompletes() throws Exception {
    CompletableFuture<String> first = new CompletableFuture<>();
    assertThat(call("exclusiveLater", first)).isSameAs(first);

    CompletableFuture<?> second =
        (CompletableFuture<?>) call("exclusiveLater", new CompletableFuture<>());
    assertThat(second).isCompletedExceptionally();
    assertThatThrownBy(second::get)
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(RateLimitExceededException.class);

    first.completeExceptionally(new IllegalStateException("failed later"));
    CompletableFuture<String> third = new CompletableFuture<>();
    assertThat(call("exclusiveLater", third)).isSameAs(third);
  }

  @Test
  void anExpressionKeysEachTenantApart() throws Exception {
    assertThat(call("order", new Order("acme", 2))).isEqualTo("order of acme");
    assertThat(refused("order", new Order("acme", 5)).key()).isEqualTo("acme");
    assertThat(call("order", new Order("globex", 1))).isEqualTo("order of globex");
  }

  @Test
  void theCallerKeysEachUserApart() throws Exception {
    call("mine");
    assertThat(refused("mine").key()).isEqualTo("alice");
    limited.caller = "bob";
    assertThat(call("mine")).isEqualTo("mine");
  }

  @Test
  void methodsNamingOneLimiterShareItsBudgetDefinedInConfig() throws Exception {
    limited.config.put("taskgate.limiter.partner.permits", "2");
    limited.config.put("taskgate.limiter.partner.period", "PT1M");
    limited.config.put("taskgate.limiter.partner.algorithm", "fixed-window");
    call("partnerA");
    call("partnerB");
    assertThat(refused("partnerA").limiter()).isEqualTo("partner");
    assertThat(refused("partnerB").limiter()).isEqualTo("partner");
    assertThat(limited.limits.limiters())
        .filteredOn(l -> l.name().equals("partner"))
        .singleElement()
        .satisfies(
            l -> {
              assertThat(l.spec().algorithm()).isEqualTo(FIXED_WINDOW);
              assertThat(l.stats().granted()).isEqualTo(2);
              assertThat(l.stats().rejected()).isEqualTo(2);
            });
  }

  @Test
  void configOverridesTheAnnotation() throws Exception {
    String name = Api.class.getName() + "#tunable";
    limited.config.put("taskgate.limiter." + name + ".permits", "3");
    limited.config.put("taskgate.limiter." + name + ".burst", "3");
    for (int i = 0; i < 3; i++) {
      call("tunable");
    }
    assertThat(refused("tunable")).isNotNull();
  }

  @Test
  void aNewKeyBeyondTheCapIsLetThroughAndCounted() throws Exception {
    String name = Api.class.getName() + "#perUser";
    limited.config.put("taskgate.limiter." + name + ".max-keys", "2");
    call("perUser", "u1");
    call("perUser", "u2");
    assertThat(call("perUser", "u3")).isEqualTo("u3"); // not tracked: fails open
    assertThat(call("perUser", "u3")).isEqualTo("u3");
    assertThat(refused("perUser", "u1")).isNotNull(); // tracked keys keep their budget
    LimiterStats stats = limited.limits.limiters().get(0).stats();
    assertThat(stats.failedOpen()).isEqualTo(2);
    assertThat(stats.keys()).isEqualTo(2);
    assertThat(stats.granted()).isEqualTo(2);
    assertThat(stats.rejected()).isEqualTo(1);
    MinuteCounts.SeriesCounts minute =
        limited.history.read(limited.timeline.clock().instant(), 1).get(0);
    assertThat(minute.series()).isEqualTo(new MinuteCounts.Series(TaskHistory.LIMITER, name));
    assertThat(minute.total(MinuteCounts.Count.FAILED_OPEN)).isEqualTo(2);
    assertThat(minute.total(MinuteCounts.Count.CALL_GRANTED)).isEqualTo(2);
    assertThat(minute.total(MinuteCounts.Count.CALL_WAITED)).isZero();
    assertThat(minute.total(MinuteCounts.Count.CALL_REFUSED)).isEqualTo(1);
  }

  @Test
  void chainedLimitsTakeAllOrNothing() throws Exception {
    call("chained", "ann");
    call("chained", "ann");
    assertThat(refused("chained", "ann").limiter()).isEqualTo("per-user");
    assertThat(call("chained", "bob")).isEqualTo("bob"); // ann's refusal took nothing globally
    RateLimitExceededException global = refused("chained", "cy");
    assertThat(global.limiter()).isEqualTo("everybody");
    assertThat(global.key()).isEmpty();
    assertThat(limited.limits.find("per-user").orElseThrow().availablePermits("cy", 0))
        .as("the global refusal took nothing of cy's own budget")
        .isEqualTo(2);
    assertThat(limited.limits.find("per-user").orElseThrow().stats().rejected()).isEqualTo(1);
    assertThat(limited.limits.find("everybody").orElseThrow().stats().rejected()).isEqualTo(1);
    assertThat(limited.limits.find("everybody").orElseThrow().stats().granted()).isEqualTo(3);
  }

  @Test
  void theBusiestKeysAndTheRefusalsOfTheLastMinuteAreShown() throws Exception {
    for (int i = 0; i < 3; i++) {
      call("fixed", "ann");
    }
    call("fixed", "bob");
    for (int i = 0; i < 5; i++) {
      call("fixed", "cy");
    }
    refused("fixed", "cy");
    NamedLimiter limiter = limited.limits.find(Api.class.getName() + "#fixed").orElseThrow();
    assertThat(limiter.topKeys(2))
        .containsExactly(new NamedLimiter.KeyUse("cy", 5, 5), new NamedLimiter.KeyUse("ann", 3, 5));
    assertThat(limiter.rejectedLastMinute()).isEqualTo(1);
    advance(61_000);
    assertThat(limiter.rejectedLastMinute()).isZero();
    assertThat(limiter.topKeys(2)).isEmpty();
  }

  @Test
  void gcraKeysShowTheirUseRemainingPermitsAndTimeUntilWhole() throws Exception {
    for (int i = 0; i < 3; i++) {
      call("gcraPerUser", "ann");
    }
    call("gcraPerUser", "bob");
    for (int i = 0; i < 5; i++) {
      call("gcraPerUser", "cy");
    }
    assertThat(refused("gcraPerUser", "cy").retryAfter()).contains(Duration.ofMillis(200));
    NamedLimiter limiter = limited.limits.find(Api.class.getName() + "#gcraPerUser").orElseThrow();
    long now = limited.ticker.nanos();
    assertThat(limiter.topKeys(2))
        .containsExactly(new NamedLimiter.KeyUse("cy", 5, 5), new NamedLimiter.KeyUse("ann", 3, 5));
    assertThat(limiter.availablePermits("ann", now)).isEqualTo(2);
    assertThat(limiter.nanosUntilFull("ann", now)).isEqualTo(600_000_000L);
    assertThat(limiter.availablePermits("nobody", now)).isEqualTo(5);
    assertThat(limiter.nanosUntilFull("nobody", now)).isZero();
    assertThat(limiter.probe("cy", now).isAcquired()).isFalse();
    assertThat(limiter.stats().keys()).isEqualTo(3);
    advance(200);
    now = limited.ticker.nanos();
    assertThat(limiter.availablePermits("ann", now)).isEqualTo(3);
    assertThat(limiter.nanosUntilFull("ann", now)).isEqualTo(400_000_000L);
    assertThat(limiter.topKeys(5))
        .containsExactly(new NamedLimiter.KeyUse("cy", 4, 5), new NamedLimiter.KeyUse("ann", 2, 5));
    assertThat(limiter.probe("cy", now).isAcquired()).isTrue();
    advance(1_000);
    assertThat(limiter.topKeys(5)).isEmpty();
  }

  @Test
  void idleKeysAreDroppedAndComeBackWithAFullBudget() throws Exception {
    call("perUser", "u1");
    call("perUser", "u2");
    assertThat(limited.limits.limiters().get(0).stats().keys()).isEqualTo(2);
    advance(Duration.ofHours(1).toMillis());
    call("perUser", "u3"); // the sweep runs on a call once its interval has passed
    assertThat(limited.limits.limiters().get(0).stats().keys()).isEqualTo(1);
    assertThat(call("perUser", "u1")).isEqualTo("u1");
  }
}
