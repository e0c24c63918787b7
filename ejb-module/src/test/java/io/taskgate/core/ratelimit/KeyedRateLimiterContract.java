package io.taskgate.core.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link KeyedRateLimiter} promises the task gate, as tests any implementation runs by
 * extending this class and making a fresh limiter (an application's own replacement included):
 * bursts then pacing per key, keys apart, idempotent reservations that are redeemed at their slot,
 * slots that never go backwards, free rejections, peek and release, and no more than the burst from
 * two threads at once.
 */
public abstract class KeyedRateLimiterContract {
  /** Nanoseconds in a millisecond. */
  protected static final long MS = 1_000_000L;

  /** The contract's "now", nanoseconds since the epoch (2027-01-15). */
  protected static final long T0 = 1_800_000_000_000L * MS;

  /** 10 per second, burst 3: a slot every 100 ms once three have run. */
  protected static final RateLimitScope TEN_A_SECOND =
      new RateLimitScope("Contract", RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(3));

  /** 1 per second, reservations at most 2 s ahead. */
  protected static final RateLimitScope SHORT_HORIZON =
      new RateLimitScope(
          "ContractHorizon",
          RateLimitPolicy.of(1, Duration.ofSeconds(1))
              .withBurst(1)
              .withMaxReservationHorizon(Duration.ofSeconds(2)));

  /** A new, empty limiter. */
  protected abstract KeyedRateLimiter newLimiter();

  /**
   * Whether the limiter holds its reservations in this instance's memory, and so counts them in
   * {@link KeyedRateLimiter.Stats#pendingReservations} (a data grid's live in the grid: it counts
   * only those it made while the grid did not answer).
   */
  protected boolean countsItsReservations() {
    return true;
  }

  /**
   * Whether the limiter carries budgets over a restart ({@link KeyedRateLimiter#restore}); a
   * replacement that keeps the default (every key starts anew) answers false.
   */
  protected boolean restoresBudgets() {
    return true;
  }

  private static long start(RateLimitDecision decision, long now) {
    return decision.runsNow() ? now : decision.slotEpochNanos();
  }

  @Test
  void aKeyRunsItsBurstAtOnceThenOneSlotPerEmissionInterval() {
    KeyedRateLimiter limiter = newLimiter();
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      starts.add(start(limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0), T0));
    }
    assertThat(starts).containsExactly(T0, T0, T0, T0 + 100 * MS, T0 + 200 * MS, T0 + 300 * MS);
  }

  @Test
  void aRestoredKeyCountsFromItsFloorAndARestoreNeverMovesABudgetBack() {
    KeyedRateLimiter limiter = newLimiter();
    boolean kept = limiter.restore(TEN_A_SECOND, "acme", T0 + 250 * MS, T0);
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      starts.add(start(limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0), T0));
    }
    for (int i = 0; i < 3; i++) {
      limiter.reserve(TEN_A_SECOND, "globex", UUID.randomUUID(), T0);
    }
    limiter.restore(TEN_A_SECOND, "globex", T0 - 500 * MS, T0); // behind what it spent

    assertThat(kept).isEqualTo(restoresBudgets());
    assertThat(starts)
        .as("slots from the floor less the burst tolerance (200 ms), or a new key's")
        .containsExactlyElementsOf(kept ? List.of(T0 + 50 * MS, T0 + 150 * MS) : List.of(T0, T0));
    assertThat(limiter.reserve(TEN_A_SECOND, "globex", UUID.randomUUID(), T0).slotEpochNanos())
        .isEqualTo(T0 + 100 * MS);
  }

  @Test
  void aTaskOfSeveralUnitsWaitsUntilAllConformAndSpendsThemAll() {
    KeyedRateLimiter limiter = newLimiter();
    RateLimitDecision three = limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0, 3);
    UUID two = UUID.randomUUID();
    RateLimitDecision deferred = limiter.reserve(TEN_A_SECOND, "acme", two, T0, 2);
    RateLimitDecision one = limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0, 1);

    assertThat(three.runsNow()).as("the whole burst at once").isTrue();
    // as units one by one: 0, 0, 0 | 100, 200 | 300
    assertThat(deferred.slotEpochNanos()).isEqualTo(T0 + 200 * MS);
    assertThat(one.slotEpochNanos()).isEqualTo(T0 + 300 * MS);
    assertThat(limiter.reserve(TEN_A_SECOND, "acme", two, T0 + 200 * MS, 2).runsNow())
        .as("redeemed at its slot, spending nothing more")
        .isTrue();
    assertThat(limiter.peek(TEN_A_SECOND, "acme", T0, 1).slotEpochNanos()).isEqualTo(T0 + 400 * MS);
  }

  @Test
  void eachKeyKeepsItsOwnBudget() {
    KeyedRateLimiter limiter = newLimiter();
    for (int i = 0; i < 3; i++) {
      limiter.reserve(TEN_A_SECOND, "busy", UUID.randomUUID(), T0);
    }
    assertThat(limiter.reserve(TEN_A_SECOND, "busy", UUID.randomUUID(), T0).runsNow()).isFalse();
    assertThat(limiter.reserve(TEN_A_SECOND, "quiet", UUID.randomUUID(), T0).runsNow()).isTrue();
  }

  @Test
  void reservingAgainReturnsTheSameSlotSpendsNothingAndRedeemsItAtTheSlot() {
    KeyedRateLimiter limiter = newLimiter();
    for (int i = 0; i < 3; i++) {
      limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0);
    }
    UUID task = UUID.randomUUID();
    RateLimitDecision first = limiter.reserve(TEN_A_SECOND, "acme", task, T0);
    RateLimitDecision again = limiter.reserve(TEN_A_SECOND, "acme", task, T0 + 10 * MS);

    assertThat(first.outcome()).isEqualTo(Outcome.DEFERRED);
    assertThat(again.slotEpochNanos()).isEqualTo(first.slotEpochNanos());
    assertThat(limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0).slotEpochNanos())
        .as("the next task gets the slot after it: the repeat spent nothing")
        .isEqualTo(first.slotEpochNanos() + 100 * MS);
    assertThat(limiter.reserve(TEN_A_SECOND, "acme", task, first.slotEpochNanos()).outcome())
        .as("at its slot, the reservation is redeemed")
        .isEqualTo(Outcome.RUN_NOW);
  }

  @Test
  void slotsNeverGoBackwardsEvenIfTheCallersClockDoes() {
    KeyedRateLimiter limiter = newLimiter();
    long last = Long.MIN_VALUE;
    for (int i = 0; i < 10; i++) {
      long now = T0 - i * 50 * MS; // the clock steps back 50 ms each time
      long start = start(limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), now), now);
      if (i >= 3) {
        assertThat(start).as("slot " + i).isGreaterThan(last);
      }
      last = Math.max(last, start);
    }
  }

  @Test
  void aRejectionSpendsNoBudget() {
    KeyedRateLimiter limiter = newLimiter();
    List<Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      outcomes.add(limiter.reserve(SHORT_HORIZON, "acme", UUID.randomUUID(), T0).outcome());
    }
    // now, +1 s, +2 s; +3 s and +4 s lie beyond the 2 s horizon
    assertThat(outcomes)
        .containsExactly(
            Outcome.RUN_NOW,
            Outcome.DEFERRED,
            Outcome.DEFERRED,
            Outcome.REJECTED_BEYOND_HORIZON,
            Outcome.REJECTED_BEYOND_HORIZON);
    assertThat(limiter.reserve(SHORT_HORIZON, "acme", UUID.randomUUID(), T0 + 1_000 * MS))
        .as("a second later the next slot is +3 s, as if the rejections never happened")
        .satisfies(d -> assertThat(d.slotEpochNanos()).isEqualTo(T0 + 3_000 * MS));
  }

  @Test
  void peekSpendsAndRemembersNothing() {
    KeyedRateLimiter limiter = newLimiter();
    for (int i = 0; i < 3; i++) {
      limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0);
    }
    RateLimitDecision peeked = limiter.peek(TEN_A_SECOND, "acme", T0);
    RateLimitDecision peekedAgain = limiter.peek(TEN_A_SECOND, "acme", T0);

    assertThat(peeked.slotEpochNanos()).isEqualTo(T0 + 100 * MS);
    assertThat(peekedAgain).isEqualTo(peeked);
    assertThat(limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0).slotEpochNanos())
        .isEqualTo(T0 + 100 * MS);
  }

  @Test
  void aReleasedReservationIsForgottenOnce() {
    KeyedRateLimiter limiter = newLimiter();
    for (int i = 0; i < 3; i++) {
      limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0);
    }
    UUID task = UUID.randomUUID();
    long slot = limiter.reserve(TEN_A_SECOND, "acme", task, T0).slotEpochNanos();

    assertThat(limiter.release(TEN_A_SECOND, "acme", task)).isTrue();
    assertThat(limiter.release(TEN_A_SECOND, "acme", task)).isFalse();
    assertThat(limiter.reserve(TEN_A_SECOND, "acme", task, T0).slotEpochNanos())
        .as("the slot is not given back: the task reserves anew, after it")
        .isGreaterThan(slot);
  }

  @Test
  void twoThreadsOnOneKeyNeverGetMoreThanTheBurstNorOneSlotTwice() throws Exception {
    KeyedRateLimiter limiter = newLimiter();
    List<RateLimitDecision> decisions = java.util.Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < 200; i++) {
                    decisions.add(limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(decisions.stream().filter(RateLimitDecision::runsNow)).hasSize(3);
    Set<Long> slots = new HashSet<>();
    for (RateLimitDecision d : decisions) {
      if (d.outcome() == Outcome.DEFERRED) {
        assertThat(slots.add(d.slotEpochNanos())).as("slot given twice").isTrue();
      }
    }
    assertThat(slots).hasSize(400 - 3);
  }

  @Test
  void statsCountThePendingReservationsTheLimiterHolds() {
    KeyedRateLimiter limiter = newLimiter();
    UUID parked = UUID.randomUUID();
    for (int i = 0; i < 4; i++) {
      limiter.reserve(TEN_A_SECOND, "acme", UUID.randomUUID(), T0);
    }
    limiter.reserve(TEN_A_SECOND, "acme", parked, T0);
    KeyedRateLimiter.Stats stats = limiter.stats();
    assertThat(stats.untrackedDecisions()).isZero();
    assertThat(stats.pendingReservations()).isEqualTo(countsItsReservations() ? 2 : 0);
    limiter.release(TEN_A_SECOND, "acme", parked);
    assertThat(limiter.stats().pendingReservations()).isEqualTo(countsItsReservations() ? 1 : 0);
  }
}
