package io.taskgate.engine.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.QueueOrder;
import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * What a bad {@code @RateLimited} declaration is told when the application deploys: the method, the
 * option and the value.
 */
class LimitDeclarationTest {

  final Limited limited = new Limited();

  /** Declarations, good and bad. */
  public static class Declarations {
    @RateLimited(permits = 5, period = "one second")
    public void badPeriod() {}

    @RateLimited("unconfigured")
    public void namedWithoutPermits() {}

    @RateLimited(permits = 5, key = "#{tenant}")
    public void twoKeys(@RateLimitKey String user, String tenant) {}

    @RateLimited(permits = 5, key = "#{tenant.id}")
    public void unknownName(String user) {}

    @RateLimited(permits = 5, key = "#{user.}")
    public void badSyntax(String user) {}

    @RateLimited(value = "shared", permits = 5)
    public void sharedFive() {}

    @RateLimited(value = "shared", permits = 6)
    public void sharedSix() {}

    @RateLimited(
        algorithm = LimiterAlgorithm.SLIDING_WINDOW,
        permits = 5,
        period = "PT0.000000001S")
    public void segmentsDoNotDivide() {}

    @RateLimited(permits = 5, period = "PT1S")
    public void tuned() {}

    @RateLimited(permits = 5)
    @RateLimited(value = "everybody", permits = 50)
    public void chainWithoutNames() {}

    @RateLimited(value = "per-user-waiting", permits = 5, maxWait = "PT1S")
    @RateLimited(value = "everybody-else", permits = 50)
    public void chainThatWaits() {}

    @RateLimited(permits = 5, fallback = "later")
    public String fallbackOfAnotherType(String user) {
      return user;
    }

    public int later(String user) {
      return 0;
    }
  }

  private Method method(String name) {
    return Arrays.stream(Declarations.class.getMethods())
        .filter(m -> m.getName().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private LimitedMethod plan(String name) {
    return limited.limits.plan(method(name), Declarations.class);
  }

  private static String named(String method) {
    return Declarations.class.getName() + "#" + method;
  }

  @Test
  void aBadPeriodIsNamedWithTheMethodAndTheValue() {
    assertThatThrownBy(() -> plan("badPeriod"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limiter " + named("badPeriod"))
        .hasMessageContaining("period = 'one second'")
        .hasMessageContaining("ISO-8601");
  }

  @Test
  void aNamedLimiterWithoutPermitsSaysWhereToSetThem() {
    assertThatThrownBy(() -> plan("namedWithoutPermits"))
        .hasMessage(
            "limiter unconfigured has no permits: set permits on @RateLimited or"
                + " taskgate.limiter.unconfigured.permits");
  }

  @Test
  void aBadConfigValueIsNamedByItsKey() {
    limited.config.put("taskgate.limiter." + named("tuned") + ".burst", "lots");
    assertThatThrownBy(() -> plan("tuned"))
        .hasMessageStartingWith(
            "taskgate.limiter." + named("tuned") + ".burst = 'lots' is not valid");
    limited.config.put("taskgate.limiter." + named("tuned") + ".burst", "0");
    assertThatThrownBy(() -> plan("tuned"))
        .hasMessageContaining("limiter " + named("tuned"))
        .hasMessageContaining("burst");
    limited.config.put("taskgate.limiter." + named("tuned") + ".burst", "2");
    limited.config.put("taskgate.limiter." + named("tuned") + ".algorithm", "leaky");
    assertThatThrownBy(() -> plan("tuned"))
        .hasMessageStartingWith(
            "taskgate.limiter." + named("tuned") + ".algorithm = 'leaky' is not valid");
  }

  @Test
  void twoKeysOnOneMethodAreRefused() {
    assertThatThrownBy(() -> plan("twoKeys"))
        .hasMessageContaining(named("twoKeys") + " has more than one key");
  }

  @Test
  void anExpressionNamingNoParameterListsTheParameters() {
    assertThatThrownBy(() -> plan("unknownName"))
        .hasMessageContaining("key = '#{tenant.id}' names no parameter")
        .hasMessageContaining("[user]");
  }

  @Test
  void anExpressionThatDoesNotParseIsRefused() {
    assertThatThrownBy(() -> plan("badSyntax"))
        .hasMessageContaining("key = '#{user.}' is not a valid Jakarta EL expression");
  }

  @Test
  void oneNameDeclaredTwoWaysNamesBothMethods() {
    plan("sharedFive");
    assertThatThrownBy(() -> plan("sharedSix"))
        .hasMessageContaining("limiter shared is declared differently by " + named("sharedFive"))
        .hasMessageContaining("and by " + named("sharedSix"));
  }

  @Test
  void aSlidingWindowWhosePeriodCannotBeSplitIsRefused() {
    assertThatThrownBy(() -> plan("segmentsDoNotDivide")).hasMessageContaining("segmentsPerWindow");
  }

  @Test
  void theLimitsOfAChainNeedNamesAndDoNotWait() {
    assertThatThrownBy(() -> plan("chainWithoutNames"))
        .hasMessageContaining(named("chainWithoutNames") + " has 2 limits: give each a name");
    assertThatThrownBy(() -> plan("chainThatWaits"))
        .hasMessageContaining("limiter per-user-waiting waits (max-wait PT1S)")
        .hasMessageContaining("set its maxWait to PT0S");
  }

  @Test
  void aFallbackThatDoesNotFitIsRefused() {
    assertThatThrownBy(() -> plan("fallbackOfAnotherType"))
        .hasMessageContaining(
            named("fallbackOfAnotherType") + ": fallback = 'later' names no method")
        .hasMessageContaining("returning String");
  }

  @Test
  void clusterScopeNeedsGcra() {
    limited.config.put("taskgate.limiter." + named("tuned") + ".scope", "cluster");
    limited.config.put("taskgate.limiter." + named("tuned") + ".algorithm", "sliding-log");
    assertThatThrownBy(() -> plan("tuned"))
        .hasMessageContaining("scope cluster needs algorithm gcra")
        .hasMessageContaining("was sliding-log");
    limited.config.put("taskgate.limiter." + named("tuned") + ".scope", "everywhere");
    assertThatThrownBy(() -> plan("tuned"))
        .hasMessageContaining(
            ".scope = 'everywhere' is not valid: expected one of [local, cluster]");
  }

  @Test
  void aGoodDeclarationWithConfigOnTopIsBuilt() {
    limited.config.put("taskgate.limiter." + named("tuned") + ".algorithm", "token-bucket");
    limited.config.put("taskgate.limiter." + named("tuned") + ".burst", "8");
    LimitSpec spec = plan("tuned").limiter().spec();
    assertThat(spec)
        .isEqualTo(
            new LimitSpec(
                named("tuned"),
                LimiterAlgorithm.TOKEN_BUCKET,
                5,
                Duration.ofSeconds(1),
                8,
                1,
                LimitSpec.DEFAULT_MAX_KEYS,
                Duration.ZERO,
                100,
                QueueOrder.OLDEST_FIRST,
                false));
    assertThat(spec.quota()).isEqualTo(8);
  }
}
