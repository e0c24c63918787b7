package io.taskgate.core.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.OverflowBehavior;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The cell a shared store keeps per key decides exactly as the in-memory shard does, through an
 * encode / decode round trip at every step (as a store that keeps bytes does).
 */
class GcraCellTest {
  static final long MS = 1_000_000L;
  static final long T0 = 1_700_000_000_000L * MS;

  /**
   * Random steps on one key (reserve with a new id, reserve again with an earlier id, release an
   * id, move time, sometimes backwards): the cell and the shard give the same decision each time.
   */
  @Property(tries = 300)
  void decidesAsTheInMemoryShardDoes(
      @ForAll @IntRange(min = 1, max = 5) int permits,
      @ForAll @IntRange(min = 1, max = 5) int burst,
      @ForAll boolean startEmpty,
      @ForAll boolean discard,
      @ForAll @Size(min = 1, max = 150) List<@IntRange(min = 0, max = 99) Integer> steps,
      @ForAll @Size(min = 150, max = 150) List<@LongRange(min = -200, max = 2_000) Long> gaps) {
    RateLimitPolicy policy =
        RateLimitPolicy.of(permits, Duration.ofSeconds(1))
            .withBurst(burst)
            .withStartEmpty(startEmpty)
            .withMaxReservationHorizon(Duration.ofSeconds(5))
            .withOverflow(discard ? OverflowBehavior.DISCARD : OverflowBehavior.WAIT_FOR_CAPACITY);
    RateLimitScope scope = new RateLimitScope("T", policy);
    GcraCell.Rules rules = GcraCell.Rules.of(policy);
    GcraShard shard = new GcraShard(new TrackedKeys(10));
    byte[] stored = null;
    List<UUID> ids = new ArrayList<>();
    long now = T0;
    for (int i = 0; i < steps.size(); i++) {
      now += gaps.get(i) * MS;
      int step = steps.get(i);
      GcraCell cell = GcraCell.decode(stored);
      if (step < 60 || ids.isEmpty()) {
        UUID id = step % 7 == 0 ? null : UUID.randomUUID();
        if (id != null) {
          ids.add(id);
        }
        int cost = 1 + step % burst; // from one unit to the whole burst
        assertThat(cell.reserve(rules, id, now, cost))
            .isEqualTo(shard.reserve(scope, "k", id, now, cost));
      } else if (step < 85) {
        UUID id = ids.get(step % ids.size());
        assertThat(cell.reserve(rules, id, now)).isEqualTo(shard.reserve(scope, "k", id, now));
      } else if (step < 95) {
        UUID id = ids.get(step % ids.size());
        assertThat(cell.release(id)).isEqualTo(shard.release(scope, "k", id));
      } else {
        int cost = 1 + step % burst;
        assertThat(cell.peek(rules, now, cost)).isEqualTo(shard.peek(scope, "k", now, cost));
      }
      if (cell.changed()) {
        stored = cell.encode();
      }
    }
  }

  @Test
  void aRedeliveryGetsItsReservedSlotAndSpendsNothing() {
    GcraCell.Rules rules = GcraCell.Rules.of(RateLimitPolicy.of(1, Duration.ofSeconds(1)));
    GcraCell cell = GcraCell.decode(null);
    UUID parked = UUID.randomUUID();
    assertThat(cell.reserve(rules, UUID.randomUUID(), T0).outcome()).isEqualTo(Outcome.RUN_NOW);
    RateLimitDecision first = cell.reserve(rules, parked, T0);
    assertThat(first.slotEpochNanos()).isEqualTo(T0 + 1_000 * MS);
    long tat = cell.tat();

    GcraCell copy = GcraCell.decode(cell.encode());
    assertThat(copy.reserve(rules, parked, T0 + 10 * MS).slotEpochNanos())
        .isEqualTo(first.slotEpochNanos());
    assertThat(copy.tat()).isEqualTo(tat);
    assertThat(copy.changed()).isFalse();
    assertThat(copy.reserve(rules, parked, T0 + 1_000 * MS).outcome()).isEqualTo(Outcome.RUN_NOW);
    assertThat(copy.pendingReservations()).isZero();
    assertThat(copy.tat()).isEqualTo(tat);
  }

  @Test
  void raiseNeverMovesTheTatBack() {
    GcraCell cell = GcraCell.decode(null);
    cell.raise(T0);
    assertThat(cell.changed()).isTrue();
    cell.raise(T0 - MS);
    assertThat(cell.changed()).isFalse();
    assertThat(cell.tat()).isEqualTo(T0);
  }

  @Test
  void aCellIsNeededUntilItsBudgetIsFullAndItsReservationsAreStale() {
    GcraCell.Rules rules = GcraCell.Rules.of(RateLimitPolicy.of(1, Duration.ofSeconds(1)));
    GcraCell cell = GcraCell.decode(null);
    cell.reserve(rules, null, T0);
    assertThat(cell.neededUntil(T0)).isEqualTo(T0 + 1_000 * MS);
    RateLimitDecision parked = cell.reserve(rules, UUID.randomUUID(), T0);
    assertThat(cell.neededUntil(T0))
        .isEqualTo(parked.slotEpochNanos() + GcraShard.STALE_RESERVATION_NANOS);
    assertThat(GcraCell.decode(null).neededUntil(T0)).isEqualTo(T0);
  }

  static final long LEASE = 2_000 * MS;
  static final long RETRY = 2 * MS;

  /** A start of several units moves the starts' chain by all of them, the begun one too. */
  @Test
  void aStartOfSeveralUnitsCountsThemAllInTheStartsChain() {
    GcraCell.Rules rules =
        GcraCell.Rules.of(RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(5));
    GcraCell cell = GcraCell.decode(null);
    assertThat(cell.tryStart(rules, T0, 0, 1, LEASE, RETRY, 5)).isZero();
    cell.begun(rules, 1, T0 + 100 * MS, 5); // began 100 ms late: its 5 units count from then
    assertThat(GcraCell.decode(cell.encode()).tryStart(rules, T0 + 150 * MS, 0, 2, LEASE, RETRY, 1))
        .as("the sixth unit conforms one interval after the late start")
        .isEqualTo(50 * MS);
    assertThat(cell.tryStart(rules, T0 + 200 * MS, 0, 2, LEASE, RETRY, 2))
        .as("two units: one interval more")
        .isEqualTo(100 * MS);
  }

  /**
   * The chain of starts really made: a late start holds the next, on-time one back instead of
   * letting the two bunch; on-time starts pass; the chain survives the cell's bytes, and a cell
   * written without it reads as one whose starts have a full bucket.
   */
  @Test
  void aLateStartHoldsTheNextOneBackAcrossTheCellsBytes() {
    GcraCell.Rules rules =
        GcraCell.Rules.of(RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(1));
    GcraCell cell = GcraCell.decode(null);
    assertThat(cell.tryStart(rules, T0, 0, 1, LEASE, RETRY)).isZero();
    assertThat(cell.changed()).isTrue();
    cell = GcraCell.decode(cell.encode());
    cell.begun(rules, 1, T0);
    // on time, one interval later
    assertThat(cell.tryStart(rules, T0 + 100 * MS, 0, 2, LEASE, RETRY)).isZero();
    cell.begun(rules, 2, T0 + 100 * MS);
    // the next slot was T0 + 200 ms; its task starts late, at 280 ms
    cell = GcraCell.decode(cell.encode());
    assertThat(cell.tryStart(rules, T0 + 280 * MS, 0, 3, LEASE, RETRY)).isZero();
    cell.begun(rules, 3, T0 + 280 * MS);
    // the task of slot 300 ms, on time, waits until 380 ms
    cell = GcraCell.decode(cell.encode());
    assertThat(cell.tryStart(rules, T0 + 300 * MS, 0, 4, LEASE, RETRY)).isEqualTo(80 * MS);
    assertThat(cell.changed()).isFalse();
    // a millisecond of jitter is let through, no more
    assertThat(cell.tryStart(rules, T0 + 379 * MS, MS, 5, LEASE, RETRY)).isZero();
    assertThat(cell.startTat()).isEqualTo(T0 + 480 * MS);
    // pending until its handler is entered: the key's next start waits, asking again shortly
    assertThat(cell.startPending(T0 + 380 * MS)).isTrue();
    assertThat(GcraCell.decode(cell.encode()).tryStart(rules, T0 + 600 * MS, 0, 6, LEASE, RETRY))
        .isEqualTo(RETRY);
    // it began late, at 395 ms: the chain moves on from then, and the key is free again
    cell.begun(rules, 5, T0 + 395 * MS);
    assertThat(cell.startTat()).isEqualTo(T0 + 495 * MS);
    assertThat(cell.startPending(T0 + 395 * MS)).isFalse();
    // another start's mark, or an earlier time, changes nothing
    cell.begun(rules, 7, T0 + 390 * MS);
    assertThat(cell.changed()).isFalse();
    // the slots' part of the cell is left as it was, and an old cell has no chain yet
    assertThat(GcraCell.decode(cell.encode()).tat()).isEqualTo(cell.tat());
    GcraCell reserved = GcraCell.decode(null);
    reserved.reserve(rules, UUID.randomUUID(), T0);
    assertThat(reserved.encode()).hasSize(12);
    assertThat(GcraCell.decode(reserved.encode()).tryStart(rules, T0, 0, 1, LEASE, RETRY)).isZero();
  }

  /** A start whose handler is never entered holds the key for its lease, no longer. */
  @Test
  void aPendingStartLapsesAfterItsLease() {
    GcraCell.Rules rules = GcraCell.Rules.of(RateLimitPolicy.of(10, Duration.ofSeconds(1)));
    GcraCell cell = GcraCell.decode(null);
    assertThat(cell.tryStart(rules, T0, 0, 1, LEASE, RETRY)).isZero();
    assertThat(cell.tryStart(rules, T0 + 1_999 * MS, 0, 2, LEASE, RETRY)).isEqualTo(MS);
    assertThat(cell.tryStart(rules, T0 + LEASE, 0, 2, LEASE, RETRY)).isZero();
  }

  /**
   * A start that asks again with its own mark, its first check having landed after its caller
   * stopped waiting for it, is let through as already counted.
   */
  @Test
  void aStartAskingAgainWithItsOwnMarkIsLetThrough() {
    GcraCell.Rules rules = GcraCell.Rules.of(RateLimitPolicy.of(10, Duration.ofSeconds(1)));
    GcraCell cell = GcraCell.decode(null);
    assertThat(cell.tryStart(rules, T0, 0, 1, LEASE, RETRY)).isZero();
    long tat = cell.startTat();
    assertThat(cell.tryStart(rules, T0 + 50 * MS, 0, 1, LEASE, RETRY)).isZero();
    assertThat(cell.startTat()).as("counted once").isEqualTo(tat);
    assertThat(cell.tryStart(rules, T0 + 50 * MS, 0, 2, LEASE, RETRY)).isEqualTo(RETRY);
  }

  /** A burst's starts pass back to back, the one after it waits for the tolerance to refill. */
  @Test
  void theStartsOfABurstPassBackToBack() {
    GcraCell.Rules rules =
        GcraCell.Rules.of(RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(3));
    GcraCell cell = GcraCell.decode(null);
    for (int i = 0; i < 3; i++) {
      assertThat(cell.tryStart(rules, T0, 0, i + 1, LEASE, RETRY)).as("start " + i).isZero();
      cell.begun(rules, i + 1, T0);
    }
    assertThat(cell.tryStart(rules, T0, 0, 9, LEASE, RETRY)).isEqualTo(100 * MS);
  }

  /** A policy that starts empty: the chain's first start is free, the next one interval later. */
  @Test
  void theStartsOfAPolicyThatStartsEmptyBeginEmpty() {
    GcraCell.Rules rules =
        GcraCell.Rules.of(
            RateLimitPolicy.of(2, Duration.ofSeconds(1)).withBurst(5).withStartEmpty(true));
    GcraCell cell = GcraCell.decode(null);
    assertThat(cell.tryStart(rules, T0, 0, 1, LEASE, RETRY)).isZero();
    cell.begun(rules, 1, T0);
    assertThat(cell.tryStart(rules, T0 + 125 * MS, 0, 2, LEASE, RETRY)).isEqualTo(375 * MS);
    assertThat(cell.tryStart(rules, T0 + 500 * MS, 0, 2, LEASE, RETRY)).isZero();
  }
}
