package io.taskgate.engine.throttle.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.core.task.RetryPolicy;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.throttle.jobs.FamilyFixture.Ship;
import io.taskgate.engine.throttle.jobs.FamilyFixture.ShipHandler;
import io.taskgate.engine.throttle.ratelimit.GateFixture;
import io.taskgate.engine.time.SettableClock;
import io.taskgate.store.MemoryThrottlerStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link DefaultThrottlingManager#setRateLimit}: the ranges, the keys, and what a change is for
 * (one key, or the whole type when the key is null); nothing out of range is stored.
 */
class RateLimitChangesTest {
  static final String TYPE = Ship.class.getName();
  static final HandlerInfo SHIP =
      new HandlerInfo(
          Ship.class,
          ShipHandler.class,
          "default",
          RetryPolicy.none(),
          Optional.empty(),
          Optional.of(
              new GateSpec(
                  new RateLimitScope(TYPE, RateLimitPolicy.of(15, Duration.ofMinutes(1))),
                  GateSpec.KeySource.HANDLER,
                  GateSpec.PolicySource.ANNOTATION)));

  private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final MemoryThrottlerStore store = new MemoryThrottlerStore();
  private final RatePolicies rates = GateFixture.policies(clock, store);
  private final DefaultThrottlingManager manager;

  RateLimitChangesTest() {
    HandlerRegistry registry =
        new HandlerRegistry() {
          @Override
          public Optional<HandlerInfo> find(String typeName) {
            return typeName.equals(TYPE) ? Optional.of(SHIP) : Optional.empty();
          }

          @Override
          public Collection<HandlerInfo> all() {
            return List.of(SHIP);
          }
        };
    manager = new DefaultThrottlingManager(store, null, clock, rates, registry, null);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "acme | 1 | P1000000D | 1 | period must be positive and at most PT8784H (366 days), was"
            + " PT24000000H",
        "acme | 1 | PT2562047788015215H | 1 | period must be positive and at most PT8784H (366"
            + " days), was PT2562047788015215H",
        "acme | 2147483647 | PT0.000000001S | 1 | permits must be between 1 and 1000000, was"
            + " 2147483647",
        "acme | 1000 | PT0.1S | 1 | permits must leave at least PT0.001S between two starts (period"
            + " / permits), was 1000 per PT0.1S: at most 100 per PT0.1S",
        "acme | 5 | PT1S | 2147483647 | burst must be between 1 and 1000000, was 2147483647",
        "'' | 5 | PT1S | 5 | key must not be empty, was \"\""
      })
  void aChangeOutOfRangeIsRefusedNamingTheFieldAndNothingIsStored(
      String key, int permits, String period, int burst, String message) {
    assertThatThrownBy(
            () -> manager.setRateLimit(TYPE, key, permits, Duration.parse(period), burst, "alice"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
    assertThat(store.rateOverrides()).isEmpty();
  }

  @Test
  void aKeyWithANulIsRefusedForAChangeAndAReset() {
    assertThatThrownBy(
            () -> manager.setRateLimit(TYPE, "a\u0000b", 5, Duration.ofSeconds(1), 5, "alice"))
        .hasMessageStartingWith("key must not contain the NUL character");
    assertThatThrownBy(() -> manager.resetRateLimit(TYPE, "a\u0000b", "alice"))
        .hasMessageStartingWith("key must not contain the NUL character");
    assertThatThrownBy(() -> manager.resetRateLimit(TYPE, "", "alice"))
        .hasMessage("key must not be empty, was \"\"");
    assertThat(store.rateOverrides()).isEmpty();
  }

  @Test
  void aKeysChangeIsTheKeysAndANullKeyChangesTheWholeType() {
    manager.setRateLimit(TYPE, "acme", 5, Duration.ofSeconds(1), 2, "alice");
    assertThat(rates.override(TYPE, "acme")).isPresent();
    assertThat(rates.override(TYPE, null)).isEmpty();

    RateLimitPolicy typeWide =
        manager.setRateLimit(TYPE, null, 1000, Duration.ofSeconds(1), 1000, "alice");

    assertThat(typeWide.emissionIntervalNanos()).isEqualTo(Duration.ofMillis(1).toNanos());
    assertThat(rates.override(TYPE, null)).isPresent();
    assertThat(manager.resetRateLimit(TYPE, null, "alice")).isTrue();
    assertThat(rates.override(TYPE, "acme")).isPresent();
  }
}
