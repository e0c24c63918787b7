package io.taskgate.engine.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.KeyQuery;
import io.taskgate.core.ratelimit.KeySnapshot;
import io.taskgate.core.ratelimit.KeyState;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link KeyedRateLimiter#keys}: the bounded, filtered, ordered key snapshot. */
class KeyedLimiterSnapshotTest {
  static final long NOW = 1_800_000_000_000_000_000L;
  static final long SECOND = 1_000_000_000L;

  /** 5 per second, burst 5: a slot every 200 ms. */
  static final RateLimitScope MAIL =
      new RateLimitScope("com.example.Mail", RateLimitPolicy.of(5, Duration.ofSeconds(1)));

  static final RateLimitScope SYNC =
      new RateLimitScope(
          "com.example.Sync", RateLimitPolicy.of(1, Duration.ofSeconds(10)).withBurst(1));

  @ParameterizedTest
  @ValueSource(ints = {1, 64})
  void keysReportTheirNextSlotAndTheBudgetLeft(int stripes) {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter(1_000, stripes);
    limiter.reserve(MAIL, "fresh", null, NOW); // 4 left
    for (int i = 0; i < 7; i++) {
      limiter.reserve(MAIL, "hot", "t" + i, NOW); // burst 5, then 2 deferred: 200 and 400 ms
    }

    KeySnapshot all = limiter.keys(KeyQuery.all(10), NOW);

    assertThat(all.supported()).isTrue();
    assertThat(all.matched()).isEqualTo(2);
    assertThat(all.keys())
        .extracting(KeyState::key, KeyState::availablePermits, k -> k.throttledAt(NOW))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("fresh", 4, false),
            org.assertj.core.groups.Tuple.tuple("hot", 0, true));
    KeyState hot = all.keys().get(1);
    // the next new task of "hot" would get the third slot after now: 600 ms
    assertThat(hot.nextSlotEpochNanos()).isEqualTo(NOW + 600_000_000L);
    assertThat(hot.throttledAt(NOW)).isTrue();
    assertThat(hot.policy()).isSameAs(MAIL.policy());
    // once its slots have passed, the budget refills one permit per 200 ms
    assertThat(limiter.keys(KeyQuery.all(10), NOW + 1_000_000_000L).keys().get(1))
        .extracting(KeyState::availablePermits)
        .isEqualTo(3);
  }

  @Test
  void scopeTextAndFilterNarrowTheKeysAndMatchedCountsThemAll() {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter(1_000);
    for (int i = 0; i < 30; i++) {
      limiter.reserve(MAIL, "tenant-" + i, null, NOW);
      limiter.reserve(SYNC, "tenant-" + i, null, NOW);
    }
    limiter.reserve(SYNC, "tenant-7", "again", NOW); // deferred 10 s

    KeySnapshot sync =
        limiter.keys(
            new KeyQuery(
                Optional.of(SYNC.name()),
                Optional.of("nant-1"),
                k -> true,
                KeyQuery.BY_SCOPE_AND_KEY,
                3),
            NOW);
    assertThat(sync.matched()).isEqualTo(11); // tenant-1, tenant-10 … tenant-19
    assertThat(sync.keys())
        .extracting(KeyState::key)
        .containsExactly("tenant-1", "tenant-10", "tenant-11");
    assertThat(sync.keys()).allMatch(k -> k.scope().equals(SYNC.name()));

    KeySnapshot waitingLongest =
        limiter.keys(
            new KeyQuery(
                Optional.empty(),
                Optional.empty(),
                k -> k.nextSlotEpochNanos() > NOW + 15 * SECOND,
                KeyQuery.BY_SCOPE_AND_KEY,
                10),
            NOW);
    assertThat(waitingLongest.keys())
        .extracting(KeyState::scope, KeyState::key)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(SYNC.name(), "tenant-7"));
  }

  @Test
  void theLimitKeepsTheFirstKeysInTheOrderOfManyThousands() {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter(100_000);
    for (int i = 0; i < 100_000; i++) {
      String key = String.format("k%06d", i);
      // key i has used (i % 7) permits of its burst of 5 (beyond 5: deferred)
      for (int n = 0; n < i % 7; n++) {
        limiter.reserve(MAIL, key, key + "-" + n, NOW);
      }
      if (i % 7 == 0) {
        limiter.reserve(MAIL, key, null, NOW - 10 * SECOND); // tracked, budget full again
      }
    }
    Comparator<KeyState> latestSlotFirst =
        Comparator.comparingLong(KeyState::nextSlotEpochNanos)
            .reversed()
            .thenComparing(KeyQuery.BY_SCOPE_AND_KEY);

    KeySnapshot top =
        limiter.keys(
            new KeyQuery(Optional.empty(), Optional.empty(), k -> true, latestSlotFirst, 20), NOW);

    assertThat(top.matched()).isEqualTo(100_000);
    assertThat(top.keys()).hasSize(20);
    // the latest slots belong to the keys that used 6 permits: i % 7 == 6, lowest keys first
    assertThat(top.keys()).extracting(KeyState::key).startsWith("k000006", "k000013", "k000020");
    assertThat(top.keys()).allMatch(k -> k.nextSlotEpochNanos() == NOW + 400_000_000L);
  }

  @Test
  void aLimitOfZeroOnlyCounts() {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter(10);
    limiter.reserve(MAIL, "a", null, NOW);
    limiter.reserve(MAIL, "b", null, NOW);
    KeySnapshot counted = limiter.keys(KeyQuery.all(0), NOW);
    assertThat(counted.matched()).isEqualTo(2);
    assertThat(counted.keys()).isEmpty();
  }

  @Test
  void aLimiterThatCannotListItsKeysSaysSo() {
    KeyedRateLimiter remote =
        new KeyedRateLimiter() {
          @Override
          public RateLimitDecision reserve(
              RateLimitScope scope, String key, Object reservationId, long now) {
            return RateLimitDecision.runNow();
          }

          @Override
          public RateLimitDecision peek(RateLimitScope scope, String key, long now) {
            return RateLimitDecision.runNow();
          }

          @Override
          public boolean release(RateLimitScope scope, String key, Object reservationId) {
            return false;
          }

          @Override
          public int evictIdle(long now) {
            return 0;
          }

          @Override
          public Stats stats() {
            return new Stats(0, 0, 0, 1);
          }
        };
    assertThat(remote.keys(KeyQuery.all(5), NOW)).isEqualTo(KeySnapshot.UNSUPPORTED);
  }

  @Test
  void aQueryRefusesABadLimitNamingIt() {
    assertThatThrownBy(() -> KeyQuery.all(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limit must be from 0 to 100000, was -1");
  }

  @Test
  void keyStateOfANewKeyHasTheWholeBurstAndOfAStartEmptyKeyOne() {
    RateLimitPolicy policy = RateLimitPolicy.of(5, Duration.ofSeconds(1));
    assertThat(KeyState.of("s", "k", policy, NOW, NOW).availablePermits()).isEqualTo(5);
    assertThat(
            KeyState.of("s", "k", policy, NOW + policy.burstToleranceNanos(), NOW)
                .availablePermits())
        .isEqualTo(1);
    KeyState waiting = KeyState.of("s", "k", policy, NOW + 2 * SECOND, NOW);
    assertThat(waiting.availablePermits()).isZero();
    assertThat(waiting.nextSlotEpochNanos())
        .isEqualTo(NOW + 2 * SECOND - policy.burstToleranceNanos());
  }
}
