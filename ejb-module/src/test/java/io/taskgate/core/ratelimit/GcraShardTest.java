package io.taskgate.core.ratelimit;

import static io.taskgate.core.ratelimit.RateLimitDecision.Outcome.DEFERRED;
import static io.taskgate.core.ratelimit.RateLimitDecision.Outcome.REJECTED_BEYOND_HORIZON;
import static io.taskgate.core.ratelimit.RateLimitDecision.Outcome.REJECTED_DISCARD;
import static io.taskgate.core.ratelimit.RateLimitDecision.Outcome.RUN_NOW;
import static io.taskgate.core.ratelimit.RateLimitDecision.Outcome.UNTRACKED;
import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.OverflowBehavior;
import io.taskgate.api.RateLimitPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The seed's timelines and rules, to the millisecond, on one shard with a hand-moved clock. */
class GcraShardTest {
  /** An arbitrary wall-clock origin, so that slots are real epoch instants. */
  static final long T0 = EpochNanos.of(Instant.parse("2026-01-01T00:00:00Z"));

  static final RateLimitPolicy FIFTEEN_PER_MINUTE = RateLimitPolicy.of(15, Duration.ofMinutes(1));

  final GcraShard shard = new GcraShard(new TrackedKeys(1_000));
  int ids;

  static long at(long millis) {
    return T0 + millis * 1_000_000L;
  }

  static long millisOf(RateLimitDecision d) {
    return (d.slotEpochNanos() - T0) / 1_000_000L;
  }

  RateLimitDecision reserve(RateLimitScope scope, String key, long millis) {
    return shard.reserve(scope, key, "task-" + ids++, at(millis));
  }

  /**
   * Reserves {@code n} tasks at once and returns when each runs, in ms after T0: now for a run-now
   * decision, else its slot.
   */
  List<Long> burstOf(int n, RateLimitScope scope, String key, long millis) {
    List<Long> slots = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      RateLimitDecision d = reserve(scope, key, millis);
      assertThat(d.outcome()).isIn(RUN_NOW, DEFERRED);
      slots.add(d.runsNow() ? millis : millisOf(d));
    }
    return slots;
  }

  static Stream<Arguments> seedTimelines() {
    return Stream.of(
        // 20 tasks at once on an idle key, 15/min, burst 15: 15 now, then one every 4 s.
        Arguments.of(
            FIFTEEN_PER_MINUTE,
            List.of(
                0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 4_000L, 8_000L, 12_000L,
                16_000L, 20_000L)),
        // Burst 1: strictly 4 s apart, never two in a row.
        Arguments.of(
            FIFTEEN_PER_MINUTE.withBurst(1),
            List.of(
                0L, 4_000L, 8_000L, 12_000L, 16_000L, 20_000L, 24_000L, 28_000L, 32_000L, 36_000L,
                40_000L, 44_000L, 48_000L, 52_000L, 56_000L, 60_000L, 64_000L, 68_000L, 72_000L,
                76_000L)),
        // Burst 5: at most 5 back to back, then the steady pace.
        Arguments.of(
            FIFTEEN_PER_MINUTE.withBurst(5),
            List.of(
                0L, 0L, 0L, 0L, 0L, 4_000L, 8_000L, 12_000L, 16_000L, 20_000L, 24_000L, 28_000L,
                32_000L, 36_000L, 40_000L, 44_000L, 48_000L, 52_000L, 56_000L, 60_000L)),
        // Start empty: the first now, every following one paced from the start.
        Arguments.of(
            FIFTEEN_PER_MINUTE.withStartEmpty(true),
            List.of(
                0L, 4_000L, 8_000L, 12_000L, 16_000L, 20_000L, 24_000L, 28_000L, 32_000L, 36_000L,
                40_000L, 44_000L, 48_000L, 52_000L, 56_000L, 60_000L, 64_000L, 68_000L, 72_000L,
                76_000L)));
  }

  @ParameterizedTest
  @MethodSource("seedTimelines")
  void twentyTasksAtOnceOnAnIdleKey(RateLimitPolicy policy, List<Long> expectedSlotsMillis) {
    RateLimitScope scope = new RateLimitScope("SyncTenantData", policy);

    assertThat(burstOf(20, scope, "tenant-a", 0)).isEqualTo(expectedSlotsMillis);
  }

  static Stream<Arguments> idleRefill() {
    return Stream.of(
        // burst 15 spent at 0; 20 s later 5 tokens dripped back in.
        Arguments.of(15, 20_000L, List.of(20_000L, 20_000L, 20_000L, 20_000L, 20_000L, 24_000L)),
        // 3 s later: not even one token (the next drips in at 4 s).
        Arguments.of(15, 3_000L, List.of(4_000L, 8_000L)),
        // an hour later: the jar is full, and holds 15, not 900.
        Arguments.of(
            15,
            3_600_000L,
            List.of(
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_604_000L)),
        // burst 5, an hour idle: 5 back to back and no more.
        Arguments.of(
            5,
            3_600_000L,
            List.of(
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_600_000L,
                3_604_000L,
                3_608_000L)));
  }

  @ParameterizedTest
  @MethodSource("idleRefill")
  void anIdleKeySavesUpToBurstAndNoMore(int burst, long laterMillis, List<Long> expected) {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(burst));
    burstOf(burst, scope, "k", 0);

    assertThat(burstOf(expected.size(), scope, "k", laterMillis)).isEqualTo(expected);
  }

  @Test
  void keysAndScopesKeepSeparateBudgets() {
    RateLimitPolicy one = FIFTEEN_PER_MINUTE.withBurst(1);
    RateLimitScope sync = new RateLimitScope("SyncTenantData", one);
    RateLimitScope mail = new RateLimitScope("SendMail", one);

    assertThat(reserve(sync, "tenant-a", 0).outcome()).isEqualTo(RUN_NOW);
    assertThat(reserve(sync, "tenant-a", 0).outcome()).isEqualTo(DEFERRED);
    assertThat(reserve(sync, "tenant-b", 0).outcome()).isEqualTo(RUN_NOW);
    assertThat(reserve(mail, "tenant-a", 0).outcome()).isEqualTo(RUN_NOW);
    assertThat(shard.trackedKeys()).isEqualTo(3);
  }

  @Test
  void keysWithTheSameHashCodeKeepSeparateBudgets() {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());

    assertThat(reserve(scope, "Aa", 0).outcome()).isEqualTo(RUN_NOW);
    assertThat(reserve(scope, "BB", 0).outcome()).isEqualTo(RUN_NOW);
    assertThat(millisOf(reserve(scope, "Aa", 0))).isEqualTo(4_000);
  }

  @Test
  void reservingAgainWithTheSameIdReturnsTheSameSlotAndSpendsNothing() {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    shard.reserve(scope, "k", "a", at(0));

    RateLimitDecision first = shard.reserve(scope, "k", "b", at(0));
    RateLimitDecision again = shard.reserve(scope, "k", "b", at(1_000));

    assertThat(first.outcome()).isEqualTo(DEFERRED);
    assertThat(again.outcome()).isEqualTo(DEFERRED);
    assertThat(again.slotEpochNanos()).isEqualTo(first.slotEpochNanos());
    assertThat(again.retryAfter()).isEqualTo(Duration.ofSeconds(3));
    assertThat(millisOf(shard.reserve(scope, "k", "c", at(1_000)))).isEqualTo(8_000);
    assertThat(shard.pendingReservations()).isEqualTo(2);
  }

  @Test
  void redeemingAtTheSlotRunsAndForgetsTheReservation() {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    shard.reserve(scope, "k", "a", at(0));
    shard.reserve(scope, "k", "b", at(0));

    RateLimitDecision redeemed = shard.reserve(scope, "k", "b", at(4_000));

    assertThat(redeemed).isSameAs(RateLimitDecision.runNow());
    assertThat(redeemed.slot()).isEmpty();
    assertThat(redeemed.retryAfter()).isZero();
    assertThat(shard.pendingReservations()).isZero();
    // Forgotten: the same id now needs new budget, the slot after b's.
    assertThat(millisOf(shard.reserve(scope, "k", "b", at(4_000)))).isEqualTo(8_000);
  }

  @Test
  void aReservationUnderAnotherKeyIsDroppedAndTheNewKeyPays() {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    shard.reserve(scope, "old", "x", at(0));
    assertThat(shard.reserve(scope, "old", "task", at(0)).outcome()).isEqualTo(DEFERRED);

    RateLimitDecision rekeyed = shard.reserve(scope, "new", "task", at(0));

    assertThat(rekeyed.outcome()).isEqualTo(RUN_NOW);
    assertThat(shard.pendingReservations()).isZero();
  }

  @Test
  void releaseForgetsAPendingReservationWithoutGivingTheSlotBack() {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    shard.reserve(scope, "k", "a", at(0));
    shard.reserve(scope, "k", "b", at(0));

    assertThat(shard.release(scope, "k", "b")).isTrue();
    assertThat(shard.release(scope, "k", "b")).isFalse();
    assertThat(shard.release(scope, "other", "a")).isFalse();
    assertThat(shard.pendingReservations()).isZero();
    assertThat(millisOf(shard.reserve(scope, "k", "c", at(0)))).isEqualTo(8_000);
  }

  @Test
  void aSlotBeyondTheHorizonIsRejectedAndSpendsNothing() {
    RateLimitScope scope =
        new RateLimitScope(
            "T", FIFTEEN_PER_MINUTE.withBurst(1).withMaxReservationHorizon(Duration.ofSeconds(10)));
    assertThat(burstOf(3, scope, "k", 0)).containsExactly(0L, 4_000L, 8_000L);

    RateLimitDecision rejected = reserve(scope, "k", 0);

    assertThat(rejected.outcome()).isEqualTo(REJECTED_BEYOND_HORIZON);
    assertThat(rejected.rejected()).isTrue();
    assertThat(millisOf(rejected)).isEqualTo(12_000);
    assertThat(rejected.retryAfter()).isEqualTo(Duration.ofSeconds(12));
    assertThat(shard.pendingReservations()).isEqualTo(2);
    // Nothing spent: two seconds later the same slot is within the horizon.
    assertThat(millisOf(reserve(scope, "k", 2_000))).isEqualTo(12_000);
  }

  @Test
  void aSlotExactlyAtTheHorizonIsReserved() {
    RateLimitScope scope =
        new RateLimitScope(
            "T", FIFTEEN_PER_MINUTE.withBurst(1).withMaxReservationHorizon(Duration.ofSeconds(4)));
    reserve(scope, "k", 0);

    assertThat(reserve(scope, "k", 0).outcome()).isEqualTo(DEFERRED);
    assertThat(reserve(scope, "k", 0).outcome()).isEqualTo(REJECTED_BEYOND_HORIZON);
  }

  @Test
  void aZeroHorizonNeverParks() {
    RateLimitScope scope =
        new RateLimitScope(
            "T", FIFTEEN_PER_MINUTE.withBurst(2).withMaxReservationHorizon(Duration.ZERO));

    assertThat(reserve(scope, "k", 0).outcome()).isEqualTo(RUN_NOW);
    assertThat(reserve(scope, "k", 0).outcome()).isEqualTo(RUN_NOW);
    assertThat(reserve(scope, "k", 0).outcome()).isEqualTo(REJECTED_BEYOND_HORIZON);
  }

  @Test
  void discardRejectsWithoutBudgetAndSpendsNothing() {
    RateLimitScope scope =
        new RateLimitScope(
            "T", FIFTEEN_PER_MINUTE.withBurst(2).withOverflow(OverflowBehavior.DISCARD));
    assertThat(burstOf(2, scope, "k", 0)).containsExactly(0L, 0L);

    RateLimitDecision dropped = reserve(scope, "k", 1_000);

    assertThat(dropped.outcome()).isEqualTo(REJECTED_DISCARD);
    assertThat(millisOf(dropped)).isEqualTo(4_000);
    assertThat(dropped.retryAfter()).isEqualTo(Duration.ofSeconds(3));
    assertThat(shard.pendingReservations()).isZero();
    assertThat(reserve(scope, "k", 4_000).outcome()).isEqualTo(RUN_NOW);
  }

  @Test
  void peekTellsTheNextSlotAndSpendsNothing() {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    assertThat(shard.peek(scope, "k", at(0)).outcome()).isEqualTo(RUN_NOW);
    assertThat(shard.trackedKeys()).isZero();
    reserve(scope, "k", 0);

    RateLimitDecision peeked = shard.peek(scope, "k", at(1_000));

    assertThat(peeked.outcome()).isEqualTo(DEFERRED);
    assertThat(millisOf(peeked)).isEqualTo(4_000);
    assertThat(millisOf(shard.peek(scope, "k", at(1_000)))).isEqualTo(4_000);
    assertThat(shard.pendingReservations()).isZero();
  }

  @Test
  void newKeysBeyondTheCapRunUntrackedAndAreCounted() {
    TrackedKeys cap = new TrackedKeys(2);
    GcraShard capped = new GcraShard(cap);
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    capped.reserve(scope, "a", null, at(0));
    capped.reserve(scope, "b", null, at(0));

    RateLimitDecision third = capped.reserve(scope, "c", null, at(0));

    assertThat(third.outcome()).isEqualTo(UNTRACKED);
    assertThat(third.runsNow()).isTrue();
    assertThat(capped.peek(scope, "c", at(0)).outcome()).isEqualTo(UNTRACKED);
    assertThat(cap.untrackedDecisions()).isEqualTo(1);
    // Known keys stay throttled at the cap.
    assertThat(capped.reserve(scope, "a", null, at(0)).outcome()).isEqualTo(DEFERRED);
    // Once a and b have refilled, the next new key evicts them and is tracked.
    assertThat(capped.reserve(scope, "d", null, at(60_000)).outcome()).isEqualTo(RUN_NOW);
    assertThat(cap.tracked()).isEqualTo(1);
    assertThat(cap.untrackedDecisions()).isEqualTo(1);
  }

  @Test
  void capSweepsAreRateLimited() {
    TrackedKeys cap = new TrackedKeys(1);
    GcraShard capped = new GcraShard(cap);
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    capped.reserve(scope, "a", null, at(0));
    assertThat(capped.reserve(scope, "b", null, at(500)).outcome()).isEqualTo(UNTRACKED);

    // The sweep at 500 ms found nothing to forget; at 1.2 s another sweep would come too soon.
    assertThat(capped.reserve(scope, "c", null, at(1_200)).outcome()).isEqualTo(UNTRACKED);
    assertThat(capped.reserve(scope, "c", null, at(4_000)).outcome()).isEqualTo(RUN_NOW);
  }

  @Test
  void evictIdleForgetsOnlyFullBucketsAndRestartsThemIdentically() {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(3));
    burstOf(3, scope, "spent-long-ago", 0);
    burstOf(3, scope, "spent-recently", 10_000);

    assertThat(shard.evictIdle(at(12_000))).isEqualTo(1);
    assertThat(shard.trackedKeys()).isEqualTo(1);
    assertThat(burstOf(4, scope, "spent-long-ago", 12_000))
        .containsExactly(12_000L, 12_000L, 12_000L, 16_000L);
    assertThat(millisOf(reserve(scope, "spent-recently", 12_000))).isEqualTo(14_000);
  }

  @Test
  void staleReservationsAreDroppedAnHourAfterTheirSlot() {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    shard.reserve(scope, "k", "a", at(0));
    shard.reserve(scope, "k", "b", at(0));

    shard.evictIdle(at(4_000 + 3_600_000));
    assertThat(shard.pendingReservations()).isEqualTo(1);
    shard.evictIdle(at(4_001 + 3_600_000));
    assertThat(shard.pendingReservations()).isZero();
  }

  @Test
  void reservedSlotsNeverGoBackwardsWhenTheClockDoes() {
    RateLimitScope scope = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(2));
    long[] times = {10_000, 10_000, 10_000, 2_000, 9_000, 0, 30_000, 1_000};
    long last = Long.MIN_VALUE;
    for (long t : times) {
      RateLimitDecision d = reserve(scope, "k", t);
      if (d.outcome() == DEFERRED) {
        assertThat(d.slotEpochNanos()).isGreaterThan(last);
        last = d.slotEpochNanos();
      }
    }
    assertThat(last).isGreaterThan(Long.MIN_VALUE);
  }

  @Test
  void aChangedPolicyAppliesToTheNextReservation() {
    RateLimitScope slow = new RateLimitScope("T", FIFTEEN_PER_MINUTE.withBurst(1));
    RateLimitScope fast = new RateLimitScope("T", RateLimitPolicy.of(60, Duration.ofMinutes(1)));
    reserve(slow, "k", 0);

    assertThat(millisOf(reserve(slow, "k", 0))).isEqualTo(4_000);
    assertThat(reserve(fast, "k", 0).outcome()).isEqualTo(RUN_NOW);
  }

  @Test
  void manyKeysSurviveGrowthAndEviction() {
    GcraShard shard = new GcraShard(new TrackedKeys(10_000));
    RateLimitScope scope = new RateLimitScope("T", RateLimitPolicy.of(1, Duration.ofSeconds(1)));
    for (int i = 0; i < 10_000; i++) {
      assertThat(shard.reserve(scope, "k" + i, null, at(i % 2 == 0 ? 0 : 5_000)).outcome())
          .isEqualTo(RUN_NOW);
    }
    assertThat(shard.trackedKeys()).isEqualTo(10_000);

    // Keys reserved at 0 are full again at 1 s; those at 5 s are not.
    assertThat(shard.evictIdle(at(2_000))).isEqualTo(5_000);
    for (int i = 0; i < 10_000; i++) {
      RateLimitDecision d = shard.peek(scope, "k" + i, at(2_000));
      assertThat(d.outcome()).as("k%d", i).isEqualTo(i % 2 == 0 ? RUN_NOW : DEFERRED);
    }
  }
}
