package io.taskgate.core.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/** Properties of the keyed GCRA over random arrival sequences. */
class GcraPropertiesTest {
  static final long MS = 1_000_000L;

  /**
   * GCRA(T, τ) admits at most {@code 1 + ⌊(W + τ) / T⌋ = burst + ⌊W / T⌋} executions in any closed
   * window of length W, where an execution happens at "now" for a run-now decision and at the
   * reserved slot for a deferred one.
   */
  @Property(tries = 300)
  void neverMoreThanBurstPlusWindowOverIntervalInAnyWindow(
      @ForAll @IntRange(min = 1, max = 20) int permits,
      @ForAll @IntRange(min = 1, max = 20) int burst,
      @ForAll @LongRange(min = 1, max = 60_000) long periodMillis,
      @ForAll @Size(min = 1, max = 120) List<@LongRange(min = 0, max = 5_000) Long> gapsMillis,
      @ForAll @LongRange(min = 0, max = 120_000) long windowMillis) {
    RateLimitPolicy policy =
        RateLimitPolicy.of(permits, Duration.ofMillis(periodMillis))
            .withBurst(burst)
            .withMaxReservationHorizon(Duration.ofMinutes(10));
    RateLimitScope scope = new RateLimitScope("T", policy);
    GcraShard shard = new GcraShard(new TrackedKeys(10));
    List<Long> executions = new ArrayList<>();
    long now = 0;
    int id = 0;
    for (long gap : gapsMillis) {
      now += gap * MS;
      RateLimitDecision d = shard.reserve(scope, "k", id++, now);
      if (!d.rejected()) {
        executions.add(d.runsNow() ? now : d.slotEpochNanos());
      }
    }
    executions.sort(null);

    long w = windowMillis * MS;
    long bound = burst + w / policy.emissionIntervalNanos();
    for (int i = 0; i < executions.size(); i++) {
      int inWindow = 0;
      for (int j = i; j < executions.size() && executions.get(j) <= executions.get(i) + w; j++) {
        inWindow++;
      }
      assertThat((long) inWindow).as("executions in [%d, %d]", i, w).isLessThanOrEqualTo(bound);
    }
  }

  /** Deferred slots of one key strictly increase, whatever the caller's clock does. */
  @Property(tries = 300)
  void reservedSlotsOfAKeyNeverDecrease(
      @ForAll @IntRange(min = 1, max = 10) int burst,
      @ForAll @Size(min = 1, max = 80) List<@LongRange(min = 0, max = 60_000) Long> nowsMillis) {
    RateLimitScope scope =
        new RateLimitScope("T", RateLimitPolicy.of(15, Duration.ofMinutes(1)).withBurst(burst));
    GcraShard shard = new GcraShard(new TrackedKeys(10));
    long last = Long.MIN_VALUE;
    int id = 0;
    for (long nowMillis : nowsMillis) {
      RateLimitDecision d = shard.reserve(scope, "k", id++, nowMillis * MS);
      if (d.outcome() == Outcome.DEFERRED) {
        assertThat(d.slotEpochNanos()).isGreaterThan(last);
        last = d.slotEpochNanos();
      }
    }
  }

  sealed interface Op permits Reserve, Evict {}

  record Reserve(String key, long advanceMillis) implements Op {}

  record Evict(long advanceMillis) implements Op {}

  @Provide
  Arbitrary<List<Op>> operations() {
    // Few keys, two pairs of them sharing a hash code ("Aa"/"BB", "AaAa"/"BBBB"/"AaBB").
    Arbitrary<String> keys =
        Arbitraries.oneOf(
            Arbitraries.of("Aa", "BB", "AaAa", "BBBB", "AaBB"),
            Arbitraries.integers().between(0, 60).map(i -> "tenant-" + i));
    Arbitrary<Long> advance = Arbitraries.longs().between(0, 3_000);
    Arbitrary<Op> reserve = Combinators.combine(keys, advance).as(Reserve::new);
    Arbitrary<Op> evict = advance.map(Evict::new);
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(12, reserve), net.jqwik.api.Tuple.of(1, evict))
        .list()
        .ofMaxSize(400);
  }

  /**
   * The open-addressed shard agrees with a plain map-based GCRA on every decision, through table
   * growth, hash collisions and evictions (backward-shift deletion).
   */
  @Property(tries = 200)
  void theShardAgreesWithAPlainMapModel(
      @ForAll("operations") List<Op> ops, @ForAll @IntRange(min = 1, max = 4) int burst) {
    RateLimitPolicy policy = RateLimitPolicy.of(2, Duration.ofSeconds(3)).withBurst(burst);
    RateLimitScope scope = new RateLimitScope("T", policy);
    GcraShard shard = new GcraShard(new TrackedKeys(1_000));
    Map<String, Long> model = new HashMap<>();
    long t = policy.emissionIntervalNanos();
    long tau = policy.burstToleranceNanos();
    long horizon = policy.maxReservationHorizonNanos();
    long now = 0;
    for (Op op : ops) {
      if (op instanceof Reserve r) {
        now += r.advanceMillis() * MS;
        long tat = Math.max(model.getOrDefault(r.key(), now), now);
        long slot = Math.max(tat - tau, now);
        Outcome expected =
            slot == now
                ? Outcome.RUN_NOW
                : slot - now > horizon ? Outcome.REJECTED_BEYOND_HORIZON : Outcome.DEFERRED;
        if (expected != Outcome.REJECTED_BEYOND_HORIZON) {
          model.put(r.key(), tat + t);
        }
        RateLimitDecision d = shard.reserve(scope, r.key(), null, now);
        assertThat(d.outcome()).as(r.key()).isEqualTo(expected);
        assertThat(d.slotEpochNanos())
            .as(r.key())
            .isEqualTo(slot == now ? RateLimitDecision.NO_SLOT : slot);
      } else if (op instanceof Evict e) {
        now += e.advanceMillis() * MS;
        long at = now;
        int before = model.size();
        model.values().removeIf(tat -> tat <= at);
        assertThat(shard.evictIdle(now)).isEqualTo(before - model.size());
      }
      assertThat(shard.trackedKeys()).isEqualTo(model.size());
    }
  }
}
