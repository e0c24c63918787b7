package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.engine.cluster.ClusterWiring;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.throttle.Restored;
import io.taskgate.engine.throttle.StartCheck;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.store.SavedBudget;
import io.taskgate.store.StoredTask;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaBudgetStore;
import io.taskgate.store.jpa.JpaTaskStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A key's budget carried over a restart: one run of the gate starts a key's burst, a second run (a
 * new limiter and spacing, as after a restart) restores from the same H2 database and must not
 * start the key again before the policy allows, whether the first run stopped cleanly (saved) or
 * was killed (its last starts unsaved).
 */
class SavedBudgetsTest {
  /** 2 a second, 3 back to back: T = 500 ms, τ = 1 s. */
  private static final RateLimitPolicy POLICY =
      RateLimitPolicy.of(2, Duration.ofSeconds(1)).withBurst(3);

  private EntityManagerFactory factory;
  private JpaBudgetStore store;
  private JpaTaskStore tasks;
  private final List<Instant> starts = new ArrayList<>();

  @BeforeEach
  void open() {
    factory = H2TestDatabase.inMemory("saved_budgets");
    ResourceLocalTransactor tx = new ResourceLocalTransactor(factory);
    store = new JpaBudgetStore(tx);
    tasks = new JpaTaskStore(tx, AuditLevel.NONE);
  }

  @AfterEach
  void close() {
    factory.close();
  }

  @Test
  void afterACleanStopAKeyGoesOnFromItsSavedBudgetNotFromAFullOne() {
    GateFixture first = run(GateFixture.T0);
    startBurst(first, "acme");
    first.clock.set(GateFixture.T0.plusMillis(10));
    first.saved.stop(); // the clean stop saves

    assertThat(store.load(EpochNanos.of(GateFixture.T0)))
        .as("the chain of acme's starts: 3 from T0 (and the 5 ms margin), 500 ms apart")
        .containsExactly(
            new SavedBudget(
                first.scope.name(), "acme", EpochNanos.of(GateFixture.T0.plusMillis(1505))));

    GateFixture second = run(GateFixture.T0.plusMillis(100));
    Instant other = startWhenAllowed(second, "globex");
    Instant next = startWhenAllowed(second, "acme");

    assertThat(next).as("a full bucket would have let it start at once").isAfter(at(100));
    assertThat(next).isEqualTo(at(505));
    assertThat(second.saved.restored(second.scope.name(), "acme", at(1504)))
        .as("shown until the restored budget is whole again")
        .isEqualTo(new Restored(at(100), at(1505), false));
    assertThat(second.saved.restored(second.scope.name(), "acme", at(1505))).isNull();
    assertThat(second.saved.restored(second.scope.name(), "globex", at(100))).isNull();
    assertThat(other).as("a key with nothing saved starts as a new one").isEqualTo(at(100));
    assertConforms();
  }

  @Test
  void withoutTheSavedBudgetTheSameRestartWouldStartASecondBurst() {
    GateFixture first = run(GateFixture.T0);
    startBurst(first, "acme");
    // no save, no task row: nothing tells the next run about acme

    GateFixture second = run(GateFixture.T0.plusMillis(100));
    assertThat(startWhenAllowed(second, "acme")).isEqualTo(at(100));
    assertThat(violations()).as("what the restore prevents").isPositive();
  }

  @Test
  void afterAKillTheKeysStartedSinceTheLastSaveWaitOneIntervalFromTheRestore() {
    GateFixture first = run(GateFixture.T0);
    first.clock.set(GateFixture.T0.plusMillis(1));
    first.saved.save(); // the mark: T0 + 1 ms
    startBurst(first, "acme"); // not saved: killed before the next save
    inProgress("acme", first.scope.name(), at(1));

    GateFixture second = run(GateFixture.T0.plusMillis(100));
    Instant next = startWhenAllowed(second, "acme");

    assertThat(next).as("restore + one interval").isEqualTo(at(600));
    assertThat(second.saved.restored(second.scope.name(), "acme", at(600)))
        .isEqualTo(new Restored(at(100), at(100 + 1500), true));
    assertConforms();
  }

  /** A run of the gate saving in the shared database as instance i1, restored at {@code at}. */
  private GateFixture run(Instant at) {
    GateFixture fixture = new GateFixture(POLICY, 1_000, Duration.ZERO);
    fixture.clock.set(at);
    Instances instances = ClusterWiring.instances("i1", null, fixture.clock);
    fixture.savingIn(store, instances).restore(List.of(fixture.handler));
    return fixture;
  }

  private void startBurst(GateFixture fixture, String key) {
    for (int i = 0; i < 3; i++) {
      assertThat(startWhenAllowed(fixture, key)).isEqualTo(fixture.clock.instant());
    }
  }

  /** Passes a task of {@code key} through the gate, moving the clock to its slot; its start. */
  private Instant startWhenAllowed(GateFixture fixture, String key) {
    ThrottledAttempt attempt = fixture.attempt(UUID.randomUUID(), key, null);
    for (int tries = 0; tries < 10; tries++) {
      Instant now = fixture.clock.instant();
      ThrottleDecision decision = fixture.gate.acquire(attempt, now);
      if (decision instanceof ThrottleDecision.ParkUntil park) {
        fixture.clock.set(park.until());
        continue;
      }
      assertThat(decision).isInstanceOf(ThrottleDecision.Run.class);
      StartCheck check =
          fixture.gate.startOf(((ThrottleDecision.Run) decision).permit(), attempt.task().id());
      check.open();
      try {
        StartCheck.Hold hold = check.holdUntil(now, null);
        if (hold != null) {
          fixture.clock.set(hold.until());
          continue;
        }
        check.starting(now);
        check.entered(now);
      } finally {
        check.close();
      }
      if (key.equals("acme")) {
        starts.add(now);
      }
      return now;
    }
    throw new AssertionError("the task of " + key + " never started");
  }

  private void inProgress(String key, String type, Instant at) {
    tasks.insert(
        new StoredTask(
            UUID.randomUUID(),
            type,
            "{}",
            TaskStatus.IN_PROGRESS,
            "default",
            null,
            at,
            1,
            null,
            null,
            0,
            at,
            at,
            0,
            "i1",
            key,
            null));
  }

  private static Instant at(long millis) {
    return GateFixture.T0.plusMillis(millis);
  }

  /** Starts of acme the policy (with the engine's 25 ms tolerance) does not allow, replayed. */
  private int violations() {
    long interval = POLICY.emissionIntervalNanos();
    long allowed = POLICY.burstToleranceNanos() + Duration.ofMillis(25).toNanos();
    long tat = Long.MIN_VALUE;
    int found = 0;
    for (Instant start : starts) {
      long t = EpochNanos.of(start);
      if (tat != Long.MIN_VALUE && tat - t > allowed) {
        found++;
      }
      tat = Math.max(tat == Long.MIN_VALUE ? t : tat, t) + interval;
    }
    return found;
  }

  private void assertConforms() {
    assertThat(violations())
        .as("starts of acme before the policy allowed them: " + starts)
        .isZero();
  }
}
