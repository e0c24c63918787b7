package io.taskgate.core.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.WindowOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DynamicWindowStateTest {
  private static final long NOON = Instant.parse("2026-11-26T12:00:00Z").toEpochMilli();
  private static final WindowOptions REBALANCED =
      WindowOptions.sliding(1, Duration.ofHours(1), 60).rebalanced(20, 2, 20);

  @ParameterizedTest(name = "{0} active: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "1  | 20",
        "2  | 10 10",
        "3  | 7 7 6",
        "4  | 5 5 5 5",
        "10 | 2 2 2 2 2 2 2 2 2 2",
      })
  void rebalancingSharesTheCapacityAmongTheActiveSubWindows(int active, String limits) {
    DynamicWindowState state = new DynamicWindowState();
    List<String> tenants = new ArrayList<>();
    for (int i = 0; i < active; i++) {
      String tenant = "tenant-" + i;
      tenants.add(tenant);
      assertThat(state.acquire(tenant, NOON + i, REBALANCED).granted()).isTrue();
    }

    List<Integer> got = tenants.stream().map(t -> state.limitOf(t, REBALANCED)).toList();

    assertThat(got)
        .isEqualTo(List.of(limits.trim().split(" +")).stream().map(Integer::valueOf).toList());
  }

  @Test
  void aRebalancedSubWindowIsHeldToItsShare() {
    DynamicWindowState state = new DynamicWindowState();
    WindowOptions options = WindowOptions.fixed(1, Duration.ofMinutes(1)).rebalanced(20, 2, 20);
    for (int i = 0; i < 10; i++) {
      state.acquire("a", NOON, options); // a alone: 20
    }
    // b arrives: a's share is now 10, and it has had 10
    assertThat(state.acquire("b", NOON, options).granted()).isTrue();
    assertThat(state.acquire("a", NOON, options).granted()).isFalse();
    for (int i = 1; i < 10; i++) {
      assertThat(state.acquire("b", NOON, options).granted()).as("b's start %d", i).isTrue();
    }
    WindowCounts.Grant refused = state.acquire("b", NOON, options);
    assertThat(refused.granted()).isFalse();
    assertThat(refused.opensAt()).isEqualTo(NOON + 60_000);
  }

  @Test
  void theCapacityHoldsAcrossSubWindows() {
    DynamicWindowState state = new DynamicWindowState();
    WindowOptions options = WindowOptions.fixed(4, Duration.ofHours(1)).withCapacity(6);
    for (int i = 0; i < 4; i++) {
      assertThat(state.acquire("a", NOON, options).granted()).isTrue();
    }
    assertThat(state.acquire("a", NOON, options).granted()).as("a's own limit").isFalse();
    assertThat(state.acquire("b", NOON, options).granted()).isTrue();
    assertThat(state.acquire("b", NOON, options).granted()).isTrue();

    WindowCounts.Grant c = state.acquire("c", NOON, options);

    assertThat(c.granted()).as("capacity 6 reached").isFalse();
    assertThat(c.opensAt()).isEqualTo(NOON + 3_600_000);
    assertThat(state.counts(NOON, options)).containsEntry("a", 4).containsEntry("b", 2);
  }

  @Test
  void aNewSubWindowEvictsTheOneIdleLongestAndWaitsWhenAllAreActive() {
    DynamicWindowState state = new DynamicWindowState(2);
    WindowOptions options = WindowOptions.fixed(5, Duration.ofSeconds(10));
    state.acquire("a", NOON, options);
    state.acquire("b", NOON + 10_000, options);

    WindowCounts.Grant c = state.acquire("c", NOON + 10_000, options);
    assertThat(c.granted()).as("a is idle: evicted").isTrue();
    assertThat(state.counts(NOON + 10_000, options)).containsOnlyKeys("b", "c");

    WindowCounts.Grant d = state.acquire("d", NOON + 11_000, options);
    assertThat(d.granted()).as("b and c are active").isFalse();
    assertThat(d.opensAt()).isEqualTo(NOON + 20_000);
    assertThat(state.acquire("d", NOON + 20_000, options).granted()).isTrue();
  }

  @Test
  void aStartGivenBackFreesItsPlace() {
    DynamicWindowState state = new DynamicWindowState();
    WindowOptions options = WindowOptions.fixed(1, Duration.ofSeconds(1));
    WindowCounts.Grant grant = state.acquire("a", NOON, options);
    assertThat(state.acquire("a", NOON, options).granted()).isFalse();

    state.giveBack("a", grant.bucketStart());

    assertThat(state.acquire("a", NOON, options).granted()).isTrue();
  }
}
