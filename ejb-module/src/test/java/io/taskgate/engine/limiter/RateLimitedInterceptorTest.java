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
import io.taskgate.api.RateLimitCost;
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

    @RateLimited(permits = 10, period = "PT1S", burst = 5)
    public String send(@RateLimitKey String tenant, @RateLimitCost int messages) {
      return tenant + " sent " + messages;
    }

    @RateLimited(algorithm = FIXED_WINDOW, permits = 5, period = "PT1S")
    public String sendInWindows(@RateLimitCost Integer messages) {
      return "sent " + messages;
    }

    @RateLimited(value = "cost-per-user", permits = 4, period = "PT1M", burst = 4, key = "#{user}")
    @RateLimited(value = "cost-everybody", permits = 6, period = "PT1M", burst = 6)
    public String sendChained(String user, @RateLimitCost long messages) {
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
  void aCallTakesThePermitsItsCostSaysAllOrNone() throws Exception {
    call("send", "acme", 3);
    call("send", "acme", 2);
    RateLimitExceededException refusal = refused("send", "acme", 1);
    assertThat(refusal.retryAfter()).contains(Duration.ofMillis(100));
    assertThat(refused("send", "acme", 2).retryAfter())
        .as("two units: the second comes an interval after the first")
        .contains(Duration.ofMillis(200));
    advance(100);
    call("send", "acme", 1);
    assertThat(call("send", "globex", 5)).isEqualTo("globex sent 5");

    call("sendInWindows", 3);
    call("sendInWindows", 2);
    assertThat(refused("sendInWindows", 1)).isNotNull();
  }

  @Test
  void aMethodWithSeveralLimitsTakesTheCostFromEachOrFromNone() throws Exception {
    call("sendChained", "u", 3L); // per-user u 3 of 4, everybody 3 of 6
    call("sendChained", "v", 3L); // per-user v 3 of 4, everybody 6 of 6
    assertThat(refused("sendChained", "w", 1L)).as("everybody is spent").isNotNull();
    advance(10_000); // one unit back for everybody, none spent by the refusal
    assertThat(refused("sendChained", "u", 2L))
        .as("u has 1 of its own left, whatever everybody has")
        .isNotNull();
    call("sendChained", "w", 1L);
  }

  @Test
  void aCostOutsideOneToTheBurstIsRefusedNamingTheMethodTheParameterAndTheValue() throws Exception {
    assertThatThrownBy(() -> call("send", "acme", 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "#send: its @RateLimitCost parameter messages must be between 1 and 5")
        .hasMessageContaining("(a call costing more could never pass), was 6");
    assertThatThrownBy(() -> call("send", "acme", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> call("sendInWindows", (Object) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was null");
    call("send", "acme", 5); // nothing was taken by the refused calls
  }

  /** Declarations the deployment refuses. */
  public static class BadCosts {
    @RateLimited(permits = 1, period = "PT1S")
    public void twoCosts(@RateLimitCost int a, @RateLimitCost int b) {}

    @RateLimited(permits = 1, period = "PT1S")
    public void textCost(@RateLimitCost String a) {}
  }

  @Test
  void twoCostParametersOrOneThatIsNotAWholeNumberAreRefusedNamingTheMethod() throws Exception {
    assertThatThrownBy(
            () ->
                limited.limits.plan(
                    BadCosts.class.getMethod("twoCosts", int.class, int.class), BadCosts.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BadCosts#twoCosts has more than one @RateLimitCost parameter");
    assertThatThrownBy(
            () ->
                limited.limits.plan(
                    BadCosts.class.getMethod("textCost", String.class), BadCosts.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "BadCosts#textCost: its @RateLimitCost parameter a is a java.lang.String");
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
