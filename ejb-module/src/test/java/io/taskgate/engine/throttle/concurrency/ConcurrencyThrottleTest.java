package io.taskgate.engine.throttle.concurrency;

import static io.taskgate.engine.throttle.concurrency.ConcurrencyFixture.attempt;
import static io.taskgate.engine.throttle.concurrency.ConcurrencyFixture.handler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.core.throttle.LocalThrottlerState;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottleRow;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.engine.throttle.concurrency.ConcurrencyFixture.ByCustomer;
import io.taskgate.engine.throttle.concurrency.ConcurrencyFixture.Export;
import io.taskgate.engine.throttle.concurrency.ConcurrencyFixture.NoneAtATime;
import io.taskgate.engine.throttle.concurrency.ConcurrencyFixture.OneAtATime;
import io.taskgate.engine.throttle.concurrency.ConcurrencyFixture.TwoPerTenant;
import io.taskgate.engine.throttle.concurrency.ConcurrencyFixture.Unlimited;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ConcurrencyThrottleTest {
  static final Instant NOW = ConcurrencyFixture.T0;
  static final String TYPE = Export.class.getName();

  final ConcurrencyFixture fixture = new ConcurrencyFixture();

  @Test
  void atMostTheLimitOfOneKeyRunAndTheOtherKeysRunMeanwhile() {
    Throttle throttle = fixture.throttle(TwoPerTenant.class);

    assertThat(throttle.acquire(attempt(TwoPerTenant.class, "acme"), NOW))
        .isInstanceOf(ThrottleDecision.Run.class);
    assertThat(throttle.acquire(attempt(TwoPerTenant.class, "acme"), NOW))
        .isInstanceOf(ThrottleDecision.Run.class);
    assertThat(throttle.acquire(attempt(TwoPerTenant.class, "acme"), NOW))
        .isEqualTo(
            new ThrottleDecision.WaitForRelease(
                "concurrency:" + TYPE + ":tenant-acme", NOW.plus(ConcurrencyThrottle.RECHECK)));
    assertThat(throttle.acquire(attempt(TwoPerTenant.class, "globex"), NOW))
        .isInstanceOf(ThrottleDecision.Run.class);
  }

  @Test
  void whateverTheEndAReleaseFreesThePlaceOnceAndNamesTheKeyItFreed() {
    Throttle throttle = fixture.throttle(OneAtATime.class);
    for (AttemptEnd end : AttemptEnd.values()) {
      Permit permit =
          ((ThrottleDecision.Run) throttle.acquire(attempt(OneAtATime.class, "any"), NOW)).permit();
      assertThat(throttle.acquire(attempt(OneAtATime.class, "any"), NOW))
          .as("full while it runs")
          .isInstanceOf(ThrottleDecision.WaitForRelease.class);

      assertThat(throttle.release(permit, end)).containsExactly("concurrency:" + TYPE + ":all");
      assertThat(throttle.release(permit, end)).as("a second release of %s", end).isEmpty();
    }
  }

  @Test
  void anAttemptOfATaskThatHoldsItsPlaceAlreadyRunsWithoutASecondPlace() {
    Throttle throttle = fixture.throttle(OneAtATime.class);
    UUID id = UUID.randomUUID();
    throttle.acquire(attempt(OneAtATime.class, id, new Export("a", 0)), NOW);

    var again = throttle.acquire(attempt(OneAtATime.class, id, new Export("a", 0)), NOW);

    assertThat(again).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(throttle.acquire(attempt(OneAtATime.class, "a"), NOW))
        .isInstanceOf(ThrottleDecision.WaitForRelease.class);
  }

  @Test
  void aTaskWhoseKeyCannotBeReadFailsAloneNamingTheThrottle() {
    Throttle throttle = fixture.throttle(TwoPerTenant.class);

    var decision = throttle.acquire(attempt(TwoPerTenant.class, null), NOW);

    assertThat(decision).isInstanceOf(ThrottleDecision.Reject.class);
    assertThat(((ThrottleDecision.Reject) decision).reason())
        .startsWith("concurrency:tenant-{tenant}: ")
        .contains("null");
    assertThat(throttle.acquire(attempt(TwoPerTenant.class, "acme"), NOW))
        .isInstanceOf(ThrottleDecision.Run.class);
  }

  @Test
  void itComesThroughTheDoorWithTheOtherKindsAndHoldsBeforeTheWindows() {
    Throttles throttles = Throttles.of(List.of(fixture.provider));

    ThrottleChain chain = throttles.chainOf(handler(TwoPerTenant.class));

    assertThat(chain.throttles()).hasSize(1);
    assertThat(chain.throttles().get(0).order()).isEqualTo(Throttle.RESOURCES);
    assertThat(throttles.chainOf(handler(Unlimited.class)).throttles()).isEmpty();
  }

  @Test
  void theViewsListEachLimitWithTheKeysHeldNowAndTheirTasks() {
    fixture.provider.start(
        List.of(handler(TwoPerTenant.class), handler(Unlimited.class)), null, null);
    Throttle throttle = fixture.throttle(TwoPerTenant.class);
    UUID first = UUID.randomUUID();
    throttle.acquire(attempt(TwoPerTenant.class, first, new Export("acme", 0)), NOW);
    UUID second = UUID.randomUUID();
    throttle.acquire(attempt(TwoPerTenant.class, second, new Export("acme", 0)), NOW);

    List<ThrottleRow> rows = fixture.provider.rows();

    assertThat(rows)
        .containsExactly(
            new ThrottleRow(
                "concurrency",
                TYPE + ":tenant-{tenant}",
                2,
                List.of(
                    new ThrottleRow.Held(
                        "concurrency:" + TYPE + ":tenant-acme",
                        "tenant-acme",
                        Set.of(first.toString(), second.toString()))),
                List.of(TYPE)));
  }

  @Test
  void aLimitBelowOneOrAKeyNamingNothingTheTaskHasIsRefusedNamingTheHandlerOptionAndValue() {
    assertThatThrownBy(() -> ConcurrencyLimit.of(handler(NoneAtATime.class)))
        .hasMessage("@Concurrency limit must be between 1 and 1000000, was 0");
    assertThatThrownBy(() -> ConcurrencyLimit.of(handler(ByCustomer.class)))
        .hasMessageStartingWith("@Concurrency key '{customer}': ")
        .hasMessageContaining("customer");

    List<String> problems =
        ConcurrencyExtension.problems(
            List.of(
                handler(TwoPerTenant.class),
                handler(NoneAtATime.class),
                handler(ByCustomer.class)));

    assertThat(problems).hasSize(2);
    assertThat(problems.get(0))
        .isEqualTo(
            "Taskgate handler "
                + NoneAtATime.class.getName()
                + ": @Concurrency limit must be between 1 and 1000000, was 0");
    assertThat(problems.get(1))
        .startsWith("Taskgate handler " + ByCustomer.class.getName() + ": @Concurrency key");
  }

  @Test
  void underManyWorkersNoKeyEverHasMoreThanItsLimitRunning() throws Exception {
    var state = new LocalThrottlerState();
    ConcurrencyConformance.check(
        List.of(new ConcurrencyFixture(state), new ConcurrencyFixture(state)));
  }
}
