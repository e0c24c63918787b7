package io.taskgate.core.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A key's schedule moved by its upstream's push-back: the pushed-back task first at the given time,
 * the key's reservations after it at their spacing, new reservations after them; the same in the
 * in-memory shard and in the grid's cell.
 */
class UpstreamShiftTest {
  static final long MS = 1_000_000L;
  static final long T0 = 1_700_000_000_000L * MS;
  static final RateLimitPolicy POLICY = RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(1);
  static final RateLimitScope SCOPE = new RateLimitScope("T", POLICY);

  private final UUID a = UUID.randomUUID();
  private final UUID b = UUID.randomUUID();
  private final UUID c = UUID.randomUUID();
  private final UUID d = UUID.randomUUID();
  private final UUID e = UUID.randomUUID();

  @Test
  void theShardPutsThePushedBackTaskFirstAndShiftsTheRestKeepingTheirSpacing() {
    GcraShard shard = new GcraShard(new TrackedKeys(10));
    assertThat(shard.reserve(SCOPE, "k", a, T0).outcome())
        .isEqualTo(RateLimitDecision.Outcome.RUN_NOW);
    assertThat(shard.reserve(SCOPE, "k", b, T0).slotEpochNanos()).isEqualTo(T0 + 100 * MS);
    shard.reserve(SCOPE, "k", c, T0);
    shard.reserve(SCOPE, "k", d, T0);

    long shift = shard.shift(SCOPE, "k", T0 + 1_000 * MS, T0 + 50 * MS, a);

    assertThat(shift).isEqualTo(1_000 * MS);
    assertThat(shard.reserve(SCOPE, "k", a, T0 + 60 * MS).slotEpochNanos())
        .isEqualTo(T0 + 1_000 * MS);
    assertThat(shard.reserve(SCOPE, "k", b, T0 + 100 * MS).slotEpochNanos())
        .isEqualTo(T0 + 1_100 * MS);
    assertThat(shard.reserve(SCOPE, "k", d, T0 + 300 * MS).slotEpochNanos())
        .isEqualTo(T0 + 1_300 * MS);
    assertThat(shard.reserve(SCOPE, "k", e, T0 + 300 * MS).slotEpochNanos())
        .as("a new task comes after them")
        .isEqualTo(T0 + 1_400 * MS);
  }

  @Test
  void theCellDoesTheSame() {
    GcraCell.Rules rules = GcraCell.Rules.of(POLICY);
    byte[] stored = null;
    GcraCell cell = GcraCell.decode(stored);
    cell.reserve(rules, a, T0);
    cell.reserve(rules, b, T0);
    cell.reserve(rules, c, T0);
    cell.reserve(rules, d, T0);
    stored = cell.encode();

    cell = GcraCell.decode(stored);
    assertThat(cell.shift(rules, T0 + 1_000 * MS, T0 + 50 * MS, a)).isEqualTo(1_000 * MS);
    stored = cell.encode();

    cell = GcraCell.decode(stored);
    assertThat(cell.reserve(rules, a, T0 + 60 * MS).slotEpochNanos()).isEqualTo(T0 + 1_000 * MS);
    assertThat(cell.reserve(rules, b, T0 + 100 * MS).slotEpochNanos()).isEqualTo(T0 + 1_100 * MS);
    assertThat(cell.reserve(rules, d, T0 + 300 * MS).slotEpochNanos()).isEqualTo(T0 + 1_300 * MS);
    assertThat(cell.reserve(rules, e, T0 + 300 * MS).slotEpochNanos()).isEqualTo(T0 + 1_400 * MS);
  }

  @Test
  void withNothingReservedTheKeysNextSlotMovesAndNoBurstFollows() {
    GcraShard shard = new GcraShard(new TrackedKeys(10));
    RateLimitScope bursty =
        new RateLimitScope("B", RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(5));

    assertThat(shard.shift(bursty, "k", T0 + 2_000 * MS, T0, null)).isZero();

    assertThat(shard.reserve(bursty, "k", a, T0 + 10 * MS).slotEpochNanos())
        .isEqualTo(T0 + 2_000 * MS);
    assertThat(shard.reserve(bursty, "k", b, T0 + 10 * MS).slotEpochNanos())
        .as("spaced after it, not a burst")
        .isEqualTo(T0 + 2_100 * MS);
  }
}
