package io.taskgate.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Backoff;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.core.task.RetryPolicy;
import io.taskgate.engine.cluster.ClusterWiring;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.schedule.SchedulerWiring;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.engine.time.ManualTicker;
import io.taskgate.engine.time.ManualTimeline;
import io.taskgate.engine.time.SettableClock;
import io.taskgate.engine.trace.TaskTracing;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaTaskStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The runner gives every permit back exactly once, whatever the attempt ends in: also when the
 * engine fails between the throttles' yes and the handler (the store refusing the claim, a fault on
 * the way to the handler). On a real store (H2 in memory), clocks set by hand.
 */
class AttemptRunnerPermitsTest {
  static final Instant T0 = ClaimsAheadCancelTest.T0;

  final List<String> releases = Collections.synchronizedList(new ArrayList<>());
  final SettableClock clock = new SettableClock(T0);
  final ManualTicker ticker = new ManualTicker();
  final AtomicBoolean storeDown = new AtomicBoolean();
  EntityManagerFactory factory;
  JpaTaskStore realStore;
  TaskScheduler scheduler;
  AttemptRunner runner;
  RuntimeException onTheWay; // thrown by the executor instead of running, if set
  HandlerInfo handler = ClaimsAheadCancelTest.PING; // the claimed task's handler

  /** A throttle that lets everything run and records what its permits end in. */
  final Throttle recording =
      new Throttle() {
        @Override
        public String name() {
          return "recording";
        }

        @Override
        public int order() {
          return RESOURCES;
        }

        @Override
        public ThrottleDecision acquire(ThrottledAttempt attempt, Instant now) {
          return ThrottleDecision.Run.now(Permit.NOTHING);
        }

        @Override
        public Set<String> release(Permit permit, AttemptEnd end) {
          releases.add(end.name());
          return Set.of();
        }
      };

  @BeforeEach
  void wire() {
    factory = H2TestDatabase.inMemory("runner-permits");
    realStore = new JpaTaskStore(new ResourceLocalTransactor(factory), AuditLevel.FULL);
    TaskStore store =
        (TaskStore)
            Proxy.newProxyInstance(
                TaskStore.class.getClassLoader(),
                new Class<?>[] {TaskStore.class},
                (proxy, method, args) -> {
                  if (storeDown.get() && method.getName().equals("writeAll")) {
                    throw new IllegalStateException("the database is down");
                  }
                  try {
                    return method.invoke(realStore, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    RunningTasks running = new RunningTasks(ticker);
    Throttles throttles = Throttles.of(List.of());
    // timers that never fire here: a retry's follow-up waits on them
    scheduler = SchedulerWiring.scheduler(null, new ManualTimeline(T0).timers(), clock, ticker);
    Wakeups wakeups = RunWiring.wakeups(throttles, running, scheduler, clock);
    // no handler registry, payloads nor refusals: the test prepares each claim itself
    TaskClaimer claimer =
        new TaskClaimer(store, null, null, throttles, running, null, wakeups, TaskTracing.OFF) {
          @Override
          Claim prepare(
              UUID taskId,
              Instant now,
              List<AttemptOutcome> outcomes,
              Map<UUID, StoredTask> read,
              String batch) {
            StoredTask queued = store.find(taskId).orElseThrow();
            ThrottledAttempt attempt =
                new ThrottledAttempt(
                    queued, ClaimsAheadCancelTest.PING, new ClaimsAheadCancelTest.Ping());
            var admitted =
                (ThrottleChain.Admission.Admitted)
                    ThrottleChain.of(List.of(recording)).acquire(attempt, now);
            return new Claim(
                queued, handler, new ClaimsAheadCancelTest.Ping(), null, admitted.permits());
          }
        };
    // no queues nor throttles: no outcome here is held on its queue or redeemed ahead
    OutcomeRecorder recorder =
        new OutcomeRecorder(
            store,
            scheduler,
            null,
            null,
            running,
            clock,
            wakeups,
            ClusterWiring.instances("node-a", null, clock));
    ClaimsAhead ahead = RunWiring.claimsAhead(store, running, scheduler, clock, wakeups);
    // no handler invoker, ticker nor push-back: execute is the test's
    AttemptExecutor executor =
        new AttemptExecutor(clock, null, wakeups, ahead, null, null, TaskTracing.OFF) {
          @Override
          AttemptOutcome execute(
              StoredTask claimed, Claim claim, io.taskgate.engine.throttle.StartCheck.Hold held) {
            if (onTheWay != null) {
              throw onTheWay;
            }
            // as a handler that returned: its permits go back as COMPLETED
            wakeups.released(claim.permits().release(AttemptEnd.COMPLETED));
            return AttemptOutcome.nothing(claimed.id(), clock.instant(), null);
          }
        };
    // no handler invoker: no start lane, so no commit-time starts
    runner =
        new AttemptRunner(
            scheduler, clock, running, claimer, ahead, wakeups, executor, recorder, null, ticker);
  }

  @AfterEach
  void close() {
    factory.close();
  }

  private UUID stored() {
    StoredTask queued =
        StoredTask.queued(UUID.randomUUID(), "Ping", "{}", "default", null, T0, null, T0);
    realStore.insert(queued);
    return queued.id();
  }

  @Test
  void anAttemptThatRanGivesItsPermitsBackOnceAsItsEnd() {
    UUID id = stored();

    runner.run(id);

    assertThat(releases).containsExactly("COMPLETED");
    StoredTask claimed = realStore.find(id).orElseThrow();
    assertThat(claimed.status()).isEqualTo(TaskStatus.IN_PROGRESS);
    assertThat(claimed.owner()).as("the claim records who runs it").isEqualTo("node-a");
  }

  @Test
  void whenTheStoreRefusesTheClaimThePermitsGoBackAsAbortedAndTheTaskIsLetGoForTheSweep() {
    UUID id = stored();
    storeDown.set(true);

    assertThatThrownBy(() -> runner.run(id)).hasMessage("the database is down");

    assertThat(releases).containsExactly("ABORTED");
    assertThat(scheduler.takeLetGo()).as("let go: the sweep brings it back").isTrue();
    assertThat(realStore.find(id).orElseThrow().status()).isEqualTo(TaskStatus.QUEUED);
  }

  @Test
  void whenTheEngineFailsAfterTheClaimTheAttemptFailsUnderItsPolicyAndThePermitsGoBackOnce() {
    UUID id = stored();
    onTheWay = new IllegalStateException("zip file closed");

    runner.run(id); // no exception: the task is not left IN_PROGRESS with nobody running it

    assertThat(releases).containsExactly("FAILED");
    StoredTask failed = realStore.find(id).orElseThrow();
    assertThat(failed.status()).as("no retry in Ping's policy").isEqualTo(TaskStatus.FAILED);
    assertThat(failed.lastError())
        .contains("Taskgate failed while running the attempt")
        .contains("zip file closed");
  }

  @Test
  void anAttemptTheEngineFailedOnIsRetriedUnderItsHandlersPolicy() {
    UUID id = stored();
    handler =
        new HandlerInfo(
            ClaimsAheadCancelTest.Ping.class,
            Object.class,
            "default",
            RetryPolicy.of(3, Backoff.FIXED, "PT10S", "PT10S", 0),
            Optional.empty());
    onTheWay = new IllegalStateException("zip file closed");

    runner.run(id);

    assertThat(releases).containsExactly("RETRIED");
    StoredTask retried = realStore.find(id).orElseThrow();
    assertThat(retried.status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(retried.scheduledAt()).isEqualTo(T0.plusSeconds(10));
    assertThat(retried.lastError()).contains("zip file closed");
  }
}
