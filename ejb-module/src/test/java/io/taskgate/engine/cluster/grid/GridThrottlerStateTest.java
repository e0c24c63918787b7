package io.taskgate.engine.cluster.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.HazelcastInstance;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.Holders.Acquired;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.core.throttle.WindowCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The job throttlers' state on a real data grid of two members: one state for both. */
class GridThrottlerStateTest {
  static final long NOON = Instant.parse("2026-11-26T12:00:00Z").toEpochMilli();
  static final Duration BUDGET = Duration.ofSeconds(5);

  static List<HazelcastInstance> members;
  final List<GridThrottlerState> states = new ArrayList<>();
  GridThrottlerState a;
  GridThrottlerState b;

  @BeforeAll
  static void twoMembers() {
    members = GridMembers.start(2);
  }

  @AfterAll
  static void stopMembers() {
    GridMembers.terminate(members);
  }

  @BeforeEach
  void onEachMember() {
    a = stateOn(members.get(0));
    b = stateOn(members.get(1));
  }

  @AfterEach
  void close() {
    states.forEach(GridThrottlerState::close);
  }

  GridThrottlerState stateOn(HazelcastInstance member) {
    GridThrottlerState state = GridMembers.emptyState(member);
    states.add(state);
    return state;
  }

  static LinkedBlockingQueue<Set<String>> listen(ThrottlerState state) {
    LinkedBlockingQueue<Set<String>> freed = new LinkedBlockingQueue<>();
    state.onFreedElsewhere(freed::add);
    return freed;
  }

  @Test
  void aMutexHasOneHolderAcrossTheGridAndItsReleaseWakesTheOtherMember() throws Exception {
    LinkedBlockingQueue<Set<String>> toldA = listen(a);
    LinkedBlockingQueue<Set<String>> toldB = listen(b);
    assertThat(a.acquire("mutex:order-1", "t1", "t1", 1)).isEqualTo(Acquired.GRANTED);
    assertThat(b.acquire("mutex:order-1", "t2", "t2", 1)).isEqualTo(Acquired.REFUSED);
    assertThat(b.acquire("mutex:order-2", "t3", "t3", 1)).isEqualTo(Acquired.GRANTED);
    assertThat(b.acquire("mutex:order-1", "t1", "t1", 1))
        .as("another execution of the holding task, on another member")
        .isEqualTo(Acquired.REENTERED);

    assertThat(a.release("mutex:order-1", "t1", "t1")).isTrue();

    // real time: the announcement crosses the grid
    assertThat(toldB.poll(10, TimeUnit.SECONDS)).containsExactly("mutex:order-1");
    assertThat(b.acquire("mutex:order-1", "t2", "t2", 1)).isEqualTo(Acquired.GRANTED);
    assertThat(toldA.poll(200, TimeUnit.MILLISECONDS))
        .as("a member is not told of its own release")
        .isNull();
    assertThat(a.holders()).containsOnlyKeys("mutex:order-1", "mutex:order-2");
    assertThat(a.holders().get("mutex:order-1")).containsOnlyKeys("t2");
  }

  @Test
  void anyMemberGivesBackWhatATaskHeldAndTheExcessOfALoweredSemaphoreDrains() {
    assertThat(a.acquire("semaphore:news", "t1", "t1", 2)).isEqualTo(Acquired.GRANTED);
    assertThat(a.acquire("mutex:order-7", "t1", "t1", 1)).isEqualTo(Acquired.GRANTED);
    assertThat(a.acquire("semaphore:news", "t2", "t2", 2)).isEqualTo(Acquired.GRANTED);
    assertThat(b.acquire("semaphore:news", "t3", "t3", 1)).isEqualTo(Acquired.REFUSED);
    assertThat(b.owners("semaphore:news")).isEqualTo(2);

    assertThat(b.releaseAll("t1")).containsExactlyInAnyOrder("semaphore:news", "mutex:order-7");
    assertThat(b.releaseAll("t1")).isEmpty();

    assertThat(a.holders()).containsOnlyKeys("semaphore:news");
    assertThat(a.acquire("semaphore:news", "t3", "t3", 1))
        .as("lowered to 1 while t2 holds: the excess drains first")
        .isEqualTo(Acquired.REFUSED);
    assertThat(a.release("semaphore:news", "t2", "t2")).isTrue();
    assertThat(b.acquire("semaphore:news", "t3", "t3", 1)).isEqualTo(Acquired.GRANTED);
    assertThat(a.parts().held().keySet()).containsExactly("t3");
  }

  @Test
  void aWindowCountsTheStartsOfEveryMember() {
    WindowOptions three = WindowOptions.fixed(3, Duration.ofSeconds(1));
    String github = "fixed-window:github";
    assertThat(a.count(github, null, NOON, three).granted()).isTrue();
    assertThat(b.count(github, null, NOON + 100, three).granted()).isTrue();
    WindowCounts.Grant third = a.count(github, null, NOON + 200, three);
    assertThat(third.granted()).isTrue();

    WindowCounts.Grant fourth = b.count(github, null, NOON + 300, three);
    assertThat(fourth.granted()).isFalse();
    assertThat(fourth.opensAt()).isEqualTo(NOON + 1_000);
    assertThat(a.opensAt(github, NOON + 300, three)).isEqualTo(NOON + 1_000);
    assertThat(b.buckets(github, NOON + 300, three)).containsExactly(java.util.Map.entry(NOON, 3));

    b.giveBack(github, null, third.bucketStart()); // that start never ran
    assertThat(a.count(github, null, NOON + 400, three).granted()).isTrue();
    assertThat(b.count(github, null, NOON + 1_000, three).granted()).isTrue();

    a.restore("fixed-window:other", null, NOON, 3);
    assertThat(b.count("fixed-window:other", null, NOON + 10, three).granted()).isFalse();
  }

  @Test
  void aDynamicWindowSharesItsCapacityAcrossTheMembersSubWindows() {
    WindowOptions rebalanced = WindowOptions.fixed(1, Duration.ofMinutes(1)).rebalanced(20, 2, 20);
    String tenants = "dynamic-window:tenants";
    for (int i = 0; i < 10; i++) {
      GridThrottlerState member = i % 2 == 0 ? a : b;
      assertThat(member.count(tenants, "tenant-a", NOON + i, rebalanced).granted()).isTrue();
    }
    assertThat(b.count(tenants, "tenant-b", NOON + 20, rebalanced).granted()).isTrue();

    // two active: 10 each, and tenant-a has had its 10
    assertThat(a.limitOf(tenants, "tenant-a", rebalanced)).isEqualTo(10);
    assertThat(b.count(tenants, "tenant-a", NOON + 30, rebalanced).granted()).isFalse();
    assertThat(a.subWindows(tenants, NOON + 30, rebalanced))
        .containsExactly(java.util.Map.entry("tenant-a", 10), java.util.Map.entry("tenant-b", 1));
  }

  @Test
  void theStoreIsReadBackOnlyByAMemberAloneInAnEmptyGrid() {
    assertThat(a.rebuildNeeded()).as("two members").isFalse();
    List<HazelcastInstance> alone = GridMembers.start(1);
    try {
      GridThrottlerState only = stateOn(alone.get(0));
      assertThat(only.rebuildNeeded()).isTrue();
      only.acquire("mutex:order-1", "t1", "t1", 1);
      assertThat(only.rebuildNeeded()).as("the grid kept a hold").isFalse();

      alone.get(0).getLifecycleService().terminate();
      // the grid is gone: nothing is taken, and the caller is told so at once
      assertThatThrownBy(() -> only.acquire("mutex:order-2", "t2", "t2", 1))
          .isInstanceOf(ThrottlerState.Unavailable.class)
          .hasMessageContaining("data grid");
      assertThatThrownBy(
              () ->
                  only.count(
                      "fixed-window:x", null, NOON, WindowOptions.fixed(1, Duration.ofSeconds(1))))
          .isInstanceOf(ThrottlerState.Unavailable.class);
    } finally {
      GridMembers.terminate(alone);
    }
  }

  @Test
  void theHoldsOutliveTheLossOfAMember() {
    List<HazelcastInstance> two = GridMembers.start(2);
    try {
      GridThrottlerState survivor = stateOn(two.get(0));
      for (int order = 0; order < 20; order++) {
        survivor.acquire("mutex:order-" + order, "t" + order, "t" + order, 1);
      }
      two.get(1).getLifecycleService().terminate(); // no graceful hand-over

      for (int order = 0; order < 20; order++) {
        assertThat(survivor.acquire("mutex:order-" + order, "other", "other", 1))
            .as("order-" + order + " after the other member died")
            .isEqualTo(Acquired.REFUSED);
      }
      assertThat(survivor.releaseAll("t3")).containsExactly("mutex:order-3");
    } finally {
      GridMembers.terminate(two);
    }
  }
}
