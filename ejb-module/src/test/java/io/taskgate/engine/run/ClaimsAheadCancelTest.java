package io.taskgate.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.Task;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.core.task.RetryPolicy;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.schedule.SchedulerWiring;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.engine.time.ManualTicker;
import io.taskgate.engine.time.SettableClock;
import io.taskgate.store.StoredTask;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaTaskStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A task claimed ahead of its rate-limit slot is cancelled before it starts: on a real store (H2 in
 * memory), clocks moved by hand.
 */
class ClaimsAheadCancelTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  record Ping() implements Task {}

  static final HandlerInfo PING =
      new HandlerInfo(Ping.class, Object.class, "default", RetryPolicy.none(), Optional.empty());

  final List<String> releases = Collections.synchronizedList(new ArrayList<>());
  final SettableClock clock = new SettableClock(T0);
  final ManualTicker ticker = new ManualTicker();
  EntityManagerFactory factory;
  JpaTaskStore store;
  RunningTasks running;
  ClaimsAhead claimer;

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
    factory = H2TestDatabase.inMemory("cancel");
    store = new JpaTaskStore(new ResourceLocalTransactor(factory), AuditLevel.FULL);
    running = new RunningTasks(ticker);
    var scheduler = SchedulerWiring.scheduler(null, null, clock, ticker);
    Wakeups wakeups = RunWiring.wakeups(Throttles.of(List.of()), running, scheduler, clock);
    claimer = RunWiring.claimsAhead(store, running, scheduler, clock, wakeups);
  }

  @AfterEach
  void close() {
    factory.close();
  }

  /**
   * Stores a task and claims it for a slot 80 ms ahead; returns the claim as the runner holds it.
   */
  Claim claimedAhead() {
    StoredTask queued =
        StoredTask.queued(UUID.randomUUID(), "Ping", "{}", "default", null, T0, null, T0);
    store.insert(queued);
    ThrottledAttempt attempt = new ThrottledAttempt(queued, PING, new Ping());
    var admitted =
        (ThrottleChain.Admission.Admitted)
            ThrottleChain.of(List.of(recording)).acquire(attempt, T0);
    return new Claim(queued, PING, new Ping(), T0.plusMillis(80), admitted.permits());
  }

  StoredTask commit(Claim claim) {
    StoredTask queued = claim.queued();
    return store
        .update(queued, queued.withStatus(TaskStatus.IN_PROGRESS).withAttempt(1), T0)
        .orElseThrow();
  }

  @Test
  void itIsCancelledWithItsAttemptGivenBackAndItsPermitsReleasedOnce() {
    Claim claim = claimedAhead();
    running.claimedAhead(claim.queued().id(), new RunningTasks.Ready(commit(claim), claim, null));

    assertThat(claimer.cancelClaimed(claim.queued().id())).isTrue();

    StoredTask cancelled = store.find(claim.queued().id()).orElseThrow();
    assertThat(cancelled.status()).isEqualTo(TaskStatus.CANCELLED);
    assertThat(cancelled.attempt()).isZero();
    assertThat(releases).containsExactly("CANCELLED");
    assertThat(claimer.cancelClaimed(claim.queued().id())).isFalse();
    assertThat(releases).containsExactly("CANCELLED");
  }

  @Test
  void aTaskNotClaimedAheadHereIsNotCancelledThisWay() {
    Claim claim = claimedAhead();
    commit(claim);

    assertThat(claimer.cancelClaimed(claim.queued().id())).isFalse();
    assertThat(store.find(claim.queued().id()).orElseThrow().status())
        .isEqualTo(TaskStatus.IN_PROGRESS);
    assertThat(releases).isEmpty();
  }

  @Test
  void aRowChangedMeanwhileIsNotCancelledAndTheTaskDoesNotStartHere() {
    Claim claim = claimedAhead();
    StoredTask claimed = commit(claim);
    running.claimedAhead(claim.queued().id(), new RunningTasks.Ready(claimed, claim, null));
    store.update(claimed, claimed.withStatus(TaskStatus.COMPLETED), T0).orElseThrow();

    assertThat(claimer.cancelClaimed(claim.queued().id())).isFalse();
    assertThat(running.claimedAhead(claim.queued().id())).isNull();
    assertThat(store.find(claim.queued().id()).orElseThrow().status())
        .isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  void aCancelWaitsForAClaimBeingCommittedThenCancelsIt() throws Exception {
    Claim claim = claimedAhead();
    CountDownLatch settled = running.claimingForSlots(List.of(claim));
    AtomicReference<Thread> canceller = new AtomicReference<>();
    CompletableFuture<Boolean> cancel =
        CompletableFuture.supplyAsync(
            () -> {
              canceller.set(Thread.currentThread());
              return claimer.cancelClaimed(claim.queued().id());
            });
    // the cancel is parked on the claim's latch before the claim is placed
    while (canceller.get() == null || canceller.get().getState() != Thread.State.TIMED_WAITING) {
      Thread.onSpinWait();
    }
    assertThat(cancel).isNotDone();

    running.claimedAhead(claim.queued().id(), new RunningTasks.Ready(commit(claim), claim, null));
    running.settled(List.of(claim), settled);

    assertThat(cancel.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(store.find(claim.queued().id()).orElseThrow().status())
        .isEqualTo(TaskStatus.CANCELLED);
  }
}
