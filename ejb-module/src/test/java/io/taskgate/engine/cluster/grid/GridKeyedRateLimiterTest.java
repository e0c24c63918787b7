package io.taskgate.engine.cluster.grid;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.LogCapture;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The grid limiter on a real data grid: two Hazelcast members in this JVM (the version Payara
 * ships), joined over TCP on the loopback under a cluster name of their own.
 */
class GridKeyedRateLimiterTest {
  static final long MS = 1_000_000L;
  static final long T0 = 1_800_000_000_000L * MS;
  static final RateLimitScope TEN_PER_SECOND =
      new RateLimitScope("Sync", RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(1));

  private final List<HazelcastInstance> members = new ArrayList<>();

  @BeforeEach
  void twoMembers() {
    members.addAll(GridMembers.start(2));
  }

  @AfterEach
  void stop() {
    GridMembers.terminate(members);
  }

  GridKeyedRateLimiter limiterOn(HazelcastInstance member, Duration budget) {
    return new GridKeyedRateLimiter(
        GridMaps.budgets(member, 1000),
        () -> member.getCluster().getMembers().size(),
        budget,
        () -> new InMemoryKeyedRateLimiter(1000),
        1000);
  }

  @Test
  void twoInstancesSpendOneBudgetPerKey() {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofSeconds(5));
    GridKeyedRateLimiter b = limiterOn(members.get(1), Duration.ofSeconds(5));
    for (int k = 0; k < 20; k++) {
      String key = "tenant-" + k;
      List<Long> starts = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        GridKeyedRateLimiter instance = i % 2 == 0 ? a : b;
        RateLimitDecision d = instance.reserve(TEN_PER_SECOND, key, UUID.randomUUID(), T0);
        starts.add(d.runsNow() ? T0 : d.slotEpochNanos());
      }
      // one budget: ten starts 100 ms apart, whichever instance asked
      for (int i = 0; i < 10; i++) {
        assertThat(starts.get(i)).as(key + " start " + i).isEqualTo(T0 + i * 100 * MS);
      }
    }
    assertThat(a.status().degraded()).isFalse();
    assertThat(b.status().fallbackDecisions()).isZero();
  }

  /**
   * An instance told that a live peer is not in its grid decides locally at 1/N of each key's rate;
   * once every peer is back in the grid it returns to the grid without moving a slot back.
   */
  @Test
  void peersOutsideTheGridTurnTheInstanceToItsShareUntilTheyJoin() {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofSeconds(5));
    GridKeyedRateLimiter b = limiterOn(members.get(1), Duration.ofSeconds(5));
    a.reserve(TEN_PER_SECOND, "k", UUID.randomUUID(), T0); // the grid's TAT: T0 + 100 ms

    a.peersOutside(List.of("c"), 3, T0);
    List<Long> local = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      RateLimitDecision d = a.reserve(TEN_PER_SECOND, "k", UUID.randomUUID(), T0);
      local.add(d.runsNow() ? T0 : d.slotEpochNanos());
    }
    // a third of the rate, 300 ms apart, after the grid's last slot of the key (T0)
    assertThat(local).containsExactly(T0 + 100 * MS, T0 + 400 * MS, T0 + 700 * MS);
    assertThat(a.status().degraded()).isTrue();
    assertThat(a.status().outside()).containsExactly("c");
    assertThat(a.status().share()).isEqualTo(3);
    // the peer in the grid still spends the grid's budget
    assertThat(b.reserve(TEN_PER_SECOND, "k", UUID.randomUUID(), T0).slotEpochNanos())
        .isEqualTo(T0 + 100 * MS);

    a.peersOutside(List.of(), 2, T0 + 10 * MS);
    RateLimitDecision back = a.reserve(TEN_PER_SECOND, "k", UUID.randomUUID(), T0 + 10 * MS);
    assertThat(a.status().degraded()).isFalse();
    assertThat(a.status().outside()).isEmpty();
    // the local slots were carried into the grid: the next one comes after them
    assertThat(back.slotEpochNanos()).isGreaterThanOrEqualTo(T0 + 900 * MS);
  }

  /**
   * While peers are outside, the grid still answers: a slot it holds for a task stays that task's,
   * and a new task's local slot comes after the grid's chain, not from a full budget beside it
   * (ClusterIT's kill: the killed instance's heartbeat looked alive for a moment after its member
   * left, and the survivor's first local slots fell among the grid's).
   */
  @Test
  void whatTheGridHoldsOfAKeyStillCountsWhilePeersAreOutside() {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofSeconds(5));
    UUID parked = UUID.randomUUID();
    assertThat(a.reserve(TEN_PER_SECOND, "k", UUID.randomUUID(), T0).runsNow()).isTrue();
    assertThat(a.reserve(TEN_PER_SECOND, "k", parked, T0).slotEpochNanos())
        .isEqualTo(T0 + 100 * MS);

    a.peersOutside(List.of("c"), 2, T0);
    RateLimitDecision early = a.reserve(TEN_PER_SECOND, "k", parked, T0 + 50 * MS);
    assertThat(early.outcome()).isEqualTo(Outcome.DEFERRED);
    assertThat(early.slotEpochNanos()).isEqualTo(T0 + 100 * MS);
    assertThat(a.reserve(TEN_PER_SECOND, "k", parked, T0 + 100 * MS).runsNow()).isTrue();
    // a new task: after the grid's last slot (T0 + 100 ms), then at half the rate
    List<Long> local = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      local.add(a.reserve(TEN_PER_SECOND, "k", UUID.randomUUID(), T0 + 100 * MS).slotEpochNanos());
    }
    assertThat(local).containsExactly(T0 + 200 * MS, T0 + 400 * MS);
    assertThat(a.status().degraded()).isTrue();
  }

  @Test
  void thePeersWhoseHeartbeatsNameNoMemberOfTheGridAreOutside() {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofSeconds(5));
    GridState state = GridState.of(GridSettings.read(key -> java.util.Optional.empty()));
    state.use(
        a,
        new GridMembership() {
          @Override
          public String self() {
            return "m-a";
          }

          @Override
          public java.util.Set<String> members() {
            return java.util.Set.of("m-a", "m-b", "m-das");
          }
        },
        members.get(0));
    java.time.Instant t = java.time.Instant.EPOCH;
    var inGrid =
        new io.taskgate.store.InstanceRecord(
            "b", "h", t, t, "1", io.taskgate.store.ParkedSummary.NONE, "m-b");
    var otherGrid =
        new io.taskgate.store.InstanceRecord(
            "c", "h", t, t, "1", io.taskgate.store.ParkedSummary.NONE, "m-elsewhere");
    var local =
        new io.taskgate.store.InstanceRecord(
            "d", "h", t, t, "1", io.taskgate.store.ParkedSummary.NONE, null);

    assertThat(state.member()).contains("m-a");
    state.checkPeers(List.of(inGrid), T0);
    assertThat(a.status().outside()).isEmpty();
    assertThat(a.status().degraded()).isFalse();
    state.checkPeers(List.of(inGrid, otherGrid, local), T0);
    assertThat(a.status().outside()).containsExactly("c", "d");
    assertThat(a.status().share()).isEqualTo(4);
  }

  /** Eight threads on each of two instances reserve for one key at once: no slot is given twice. */
  @Test
  void concurrentReservationsFromTwoInstancesGetDistinctSlots() throws Exception {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofSeconds(5));
    GridKeyedRateLimiter b = limiterOn(members.get(1), Duration.ofSeconds(5));
    java.util.concurrent.ExecutorService threads =
        java.util.concurrent.Executors.newFixedThreadPool(16);
    List<java.util.concurrent.Future<Long>> slots = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      GridKeyedRateLimiter instance = i % 2 == 0 ? a : b;
      slots.add(
          threads.submit(
              () -> {
                RateLimitDecision d =
                    instance.reserve(TEN_PER_SECOND, "hot", UUID.randomUUID(), T0);
                return d.runsNow() ? T0 : d.slotEpochNanos();
              }));
    }
    List<Long> sorted = new ArrayList<>();
    for (var slot : slots) {
      sorted.add(slot.get(30, TimeUnit.SECONDS));
    }
    threads.shutdown();
    sorted.sort(null);
    // first: a decision made without the grid (it did not answer within 5 s) spends a local budget
    assertThat(a.status().fallbackDecisions() + b.status().fallbackDecisions())
        .as("decisions made without the grid")
        .isZero();
    for (int i = 0; i < sorted.size(); i++) {
      assertThat(sorted.get(i)).as("slot " + i).isEqualTo(T0 + i * 100 * MS);
    }
  }

  @Test
  void aReservationIsRedeemedOnAnyInstanceWithoutPayingAgain() {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofSeconds(5));
    GridKeyedRateLimiter b = limiterOn(members.get(1), Duration.ofSeconds(5));
    UUID parked = UUID.randomUUID();
    assertThat(a.reserve(TEN_PER_SECOND, "k", UUID.randomUUID(), T0).outcome())
        .isEqualTo(Outcome.RUN_NOW);
    RateLimitDecision reserved = a.reserve(TEN_PER_SECOND, "k", parked, T0);
    assertThat(reserved.slotEpochNanos()).isEqualTo(T0 + 100 * MS);

    // the instance that parked it died; another takes it over and asks again: the same slot
    assertThat(b.reserve(TEN_PER_SECOND, "k", parked, T0 + 5 * MS).slotEpochNanos())
        .isEqualTo(reserved.slotEpochNanos());
    assertThat(b.reserve(TEN_PER_SECOND, "k", parked, T0 + 100 * MS).outcome())
        .isEqualTo(Outcome.RUN_NOW);
    // nothing was spent twice: the next new task gets the slot after the parked one's
    assertThat(b.reserve(TEN_PER_SECOND, "k", UUID.randomUUID(), T0 + 100 * MS).slotEpochNanos())
        .isEqualTo(T0 + 200 * MS);
  }

  /**
   * A start counted on one member holds the next start of the key on the other one until it has
   * begun and the policy allows the next; a start that began late moves the chain on for both.
   */
  @Test
  void aStartOnOneMemberHoldsTheKeysNextStartOnTheOther() throws Exception {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofSeconds(5));
    GridKeyedRateLimiter b = limiterOn(members.get(1), Duration.ofSeconds(5));
    String scope = TEN_PER_SECOND.name();
    var policy = TEN_PER_SECOND.policy();
    assertThat(a.starts().tryStart(scope, "s", policy, T0, 11)).isZero();
    // pending until a says it began
    assertThat(b.starts().tryStart(scope, "s", policy, T0 + 10 * MS, 12))
        .isEqualTo(GridStarts.PENDING_RETRY_NANOS);
    a.starts().begun(scope, "s", policy, 11, T0).get(5, TimeUnit.SECONDS);
    assertThat(b.starts().tryStart(scope, "s", policy, T0 + 10 * MS, 12)).isEqualTo(89 * MS);
    assertThat(b.starts().tryStart(scope, "s", policy, T0 + 99 * MS, 12)).isZero();
    b.starts().begun(scope, "s", policy, 12, T0 + 150 * MS).get(5, TimeUnit.SECONDS);
    assertThat(a.starts().tryStart(scope, "s", policy, T0 + 200 * MS, 13)).isEqualTo(49 * MS);
    assertThat(a.starts().tryStart(scope, "other", policy, T0 + 10 * MS, 14)).isZero();
  }

  @Test
  void budgetsSurviveTheLossOfAMember() {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofSeconds(5));
    for (int k = 0; k < 50; k++) {
      for (int i = 0; i < 5; i++) {
        a.reserve(TEN_PER_SECOND, "key-" + k, UUID.randomUUID(), T0);
      }
    }
    members.remove(1).getLifecycleService().terminate(); // no graceful hand-over

    for (int k = 0; k < 50; k++) {
      RateLimitDecision next = a.reserve(TEN_PER_SECOND, "key-" + k, UUID.randomUUID(), T0);
      assertThat(next.slotEpochNanos()).as("key-" + k).isEqualTo(T0 + 500 * MS);
    }
    assertThat(a.status().degraded()).isFalse();
  }

  @Test
  void anIdleKeyLeavesTheGridAfterADay() {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofSeconds(5));
    a.reserve(TEN_PER_SECOND, "idle", null, T0);
    IMap<String, byte[]> map = members.get(1).getMap(GridKeyedRateLimiter.MAP_NAME);
    assertThat(map.getEntryView(GridCells.cellKey(TEN_PER_SECOND, "idle")).getMaxIdle())
        .isEqualTo(Duration.ofHours(24).toMillis());
  }

  /**
   * The key's partition is kept busy (a slow update holds the member's partition thread) longer
   * than the budget: a slow call is asked again after the budget, spending nothing; the third
   * within a second switches to deciding locally at half the rate (two members), a warning names
   * the setting, and once the grid answers again the key's slots carry on from where the fallback
   * left them, never earlier.
   */
  @Test
  void aGridThatDoesNotAnswerInTimeFallsBackToTheSharedRateAndResumesWithoutABurst()
      throws Exception {
    GridKeyedRateLimiter a = limiterOn(members.get(0), Duration.ofMillis(50));
    IMap<String, byte[]> map = members.get(0).getMap(GridKeyedRateLimiter.MAP_NAME);
    String cell = GridCells.cellKey(TEN_PER_SECOND, "busy");
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Object> blocker =
        map.submitToKey(cell, new Block(release.hashCode())).toCompletableFuture();
    Block.LATCHES.put(release.hashCode(), release);
    UUID parked = UUID.randomUUID();
    try (LogCapture log = new LogCapture(GridKeyedRateLimiter.class, Level.WARNING)) {
      long before = System.nanoTime();
      RateLimitDecision first = a.reserve(TEN_PER_SECOND, "busy", UUID.randomUUID(), T0);
      long waitedMillis = (System.nanoTime() - before) / MS;
      assertThat(waitedMillis).as("waited for the grid").isLessThan(1_000);
      // a slow answer spends nothing of a budget of the instance's own: the task asks the grid
      // again after the budget, without a switch
      assertThat(first.outcome()).isEqualTo(Outcome.DEFERRED);
      assertThat(first.slotEpochNanos()).isEqualTo(T0 + 50 * MS);
      assertThat(a.status().degraded()).isFalse();
      assertThat(a.reserve(TEN_PER_SECOND, "busy", UUID.randomUUID(), T0).slotEpochNanos())
          .isEqualTo(T0 + 50 * MS);
      assertThat(a.status().fallbackDecisions()).isZero();
      // the third within a second switches the instance to its share, half the rate (two
      // members), with a warning naming the setting
      assertThat(a.reserve(TEN_PER_SECOND, "busy", UUID.randomUUID(), T0).outcome())
          .isEqualTo(Outcome.RUN_NOW);
      assertThat(a.status().degraded()).isTrue();
      assertThat(a.status().share()).isEqualTo(2);
      assertThat(log.messages(Level.WARNING))
          .anySatisfy(m -> assertThat(m).contains("taskgate.rate-limit.grid-timeout=PT0.05S"));

      // from then on decided at once without asking the grid, 200 ms apart
      assertThat(a.reserve(TEN_PER_SECOND, "busy", parked, T0).slotEpochNanos())
          .isEqualTo(T0 + 200 * MS);
      for (int i = 2; i <= 7; i++) {
        assertThat(a.reserve(TEN_PER_SECOND, "busy", UUID.randomUUID(), T0).slotEpochNanos())
            .isEqualTo(T0 + i * 200 * MS);
      }
      assertThat(a.status().fallbackDecisions()).isEqualTo(8);
    } finally {
      release.countDown();
      blocker.get(10, TimeUnit.SECONDS);
    }

    // a second later the grid is asked again and answers: the key carries on after the
    // fallback's last slot (T0 + 1400 ms), not at once with a full budget
    long later = T0 + GridKeyedRateLimiter.PROBE_EVERY_NANOS;
    RateLimitDecision next = a.reserve(TEN_PER_SECOND, "busy", UUID.randomUUID(), later);
    assertThat(a.status().degraded()).isFalse();
    assertThat(next.slotEpochNanos()).isGreaterThanOrEqualTo(T0 + 1_500 * MS);
    // the task the fallback parked keeps its slot
    assertThat(a.reserve(TEN_PER_SECOND, "busy", parked, T0 + 200 * MS).outcome())
        .isEqualTo(Outcome.RUN_NOW);
  }

  /** A slow update: holds its partition's thread until its latch is released. */
  static final class Block implements com.hazelcast.map.EntryProcessor<String, byte[], Object> {
    private static final long serialVersionUID = 1L;
    static final java.util.Map<Integer, CountDownLatch> LATCHES =
        new java.util.concurrent.ConcurrentHashMap<>();
    private final int latch;

    Block(int latch) {
      this.latch = latch;
    }

    @Override
    public Object process(java.util.Map.Entry<String, byte[]> entry) {
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!LATCHES.containsKey(latch) && System.nanoTime() < deadline) {
          Thread.onSpinWait();
        }
        LATCHES.get(latch).await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return null;
    }

    @Override
    public com.hazelcast.map.EntryProcessor<String, byte[], Object> getBackupProcessor() {
      return null;
    }
  }
}
