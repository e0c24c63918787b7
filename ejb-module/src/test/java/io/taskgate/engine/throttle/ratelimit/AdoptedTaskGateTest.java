package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.GcraCell;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.throttle.ThrottleDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Tasks this instance took over from a dead one meet reservations that instance made in a shared
 * limiter (cells as the data grid keeps them): a slot still to come is kept, one that passed longer
 * ago than the interval is given up for a new one after the key's others.
 */
class AdoptedTaskGateTest {
  /** 10 per second, one at a time: slots 100 ms apart. */
  static final RateLimitPolicy TEN_A_SECOND =
      RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(1);

  /** One key's cell per (scope, key), shared by every instance, as in the grid. */
  static final class SharedCells implements KeyedRateLimiter {
    final Map<String, GcraCell> cells = new HashMap<>();

    private GcraCell cell(RateLimitScope scope, String key) {
      return cells.computeIfAbsent(scope.name() + "/" + key, k -> GcraCell.decode(null));
    }

    @Override
    public RateLimitDecision reserve(RateLimitScope scope, String key, Object id, long now) {
      return cell(scope, key).reserve(GcraCell.Rules.of(scope.policy()), (UUID) id, now);
    }

    @Override
    public RateLimitDecision peek(RateLimitScope scope, String key, long now) {
      return cell(scope, key).peek(GcraCell.Rules.of(scope.policy()), now);
    }

    @Override
    public boolean release(RateLimitScope scope, String key, Object id) {
      return cell(scope, key).release((UUID) id);
    }

    @Override
    public long reservedSlot(RateLimitScope scope, String key, Object id) {
      return cell(scope, key).slotOf((UUID) id);
    }

    @Override
    public int evictIdle(long now) {
      return 0;
    }

    @Override
    public Stats stats() {
      return new Stats(cells.size(), 0, 0, 1000);
    }
  }

  final SharedCells cells = new SharedCells();
  final GateFixture survivor = new GateFixture(TEN_A_SECOND, 100, Duration.ZERO, cells);

  @Test
  void aTakenOverTaskKeepsASlotToComeAndGetsANewOneForASlotLongPassed() {
    // the dead instance reserved slots T0, +100, ..., +700 ms for eight tasks of one key
    long t0 = EpochNanos.of(GateFixture.T0);
    UUID[] tasks = new UUID[8];
    for (int i = 0; i < tasks.length; i++) {
      tasks[i] = UUID.randomUUID();
      cells.reserve(survivor.scope, "acme", tasks[i], t0);
    }
    // the survivor takes the last seven over 350 ms later
    Instant now = GateFixture.T0.plusMillis(350);
    survivor.clock.set(now);
    for (int i = 1; i < tasks.length; i++) {
      survivor.instances.adopted(tasks[i], now);
    }

    ThrottleDecision longPassed = acquire(tasks[1]); // slot +100: 250 ms ago
    ThrottleDecision passed = acquire(tasks[2]); // slot +200: 150 ms ago
    ThrottleDecision justPassed = acquire(tasks[3]); // slot +300: 50 ms ago, within the interval
    ThrottleDecision toCome = acquire(tasks[7]); // slot +700

    // new slots after the key's others (the last, +700, made the next free slot +800)
    assertThat(until(longPassed)).isEqualTo(GateFixture.T0.plusMillis(800));
    assertThat(until(passed)).isEqualTo(GateFixture.T0.plusMillis(900));
    assertThat(justPassed).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(until(toCome)).isEqualTo(GateFixture.T0.plusMillis(700));
    // asked again (claimed at its new slot), a task is no longer taken for adopted
    survivor.clock.set(GateFixture.T0.plusMillis(800));
    assertThat(acquire(tasks[1])).isInstanceOf(ThrottleDecision.Run.class);
  }

  @Test
  void aTaskOfThisInstanceRunsAtItsPassedSlotAsBefore() {
    UUID late = UUID.randomUUID();
    cells.reserve(survivor.scope, "acme", UUID.randomUUID(), EpochNanos.of(GateFixture.T0));
    cells.reserve(survivor.scope, "acme", late, EpochNanos.of(GateFixture.T0));
    survivor.clock.set(
        GateFixture.T0.plusMillis(350)); // its slot +100 passed while workers were busy

    assertThat(acquire(late)).isInstanceOf(ThrottleDecision.Run.class);
  }

  ThrottleDecision acquire(UUID task) {
    return survivor.gate.acquire(survivor.attempt(task, "acme", null), survivor.clock.instant());
  }

  static Instant until(ThrottleDecision decision) {
    assertThat(decision).isInstanceOf(ThrottleDecision.ParkUntil.class);
    return ((ThrottleDecision.ParkUntil) decision).until();
  }
}
