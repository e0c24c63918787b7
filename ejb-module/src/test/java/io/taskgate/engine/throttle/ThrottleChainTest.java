package io.taskgate.engine.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Task;
import io.taskgate.core.task.RetryPolicy;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.store.StoredTask;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ThrottleChainTest {
  static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  record Ping() implements Task {}

  static final ThrottledAttempt ATTEMPT =
      new ThrottledAttempt(
          StoredTask.queued(UUID.randomUUID(), "Ping", "{}", "default", null, NOW, null, NOW),
          new HandlerInfo(
              Ping.class, Object.class, "default", RetryPolicy.none(), Optional.empty()),
          new Ping());

  /** What the throttles of a test were asked, in order: "acquire A", "release A NOT_STARTED". */
  final List<String> log = Collections.synchronizedList(new ArrayList<>());

  /** A throttle answering what {@code decide} gives, logging every call. */
  class Scripted implements Throttle {
    final String name;
    final int order;
    final Supplier<ThrottleDecision> decide;
    final Set<String> frees;

    Scripted(String name, int order, Supplier<ThrottleDecision> decide, Set<String> frees) {
      this.name = name;
      this.order = order;
      this.decide = decide;
      this.frees = frees;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public int order() {
      return order;
    }

    @Override
    public ThrottleDecision acquire(ThrottledAttempt attempt, Instant now) {
      log.add("acquire " + name);
      return decide.get();
    }

    @Override
    public Set<String> release(Permit permit, AttemptEnd end) {
      log.add("release " + name + " " + end);
      return frees;
    }

    @Override
    public void passedOver(ThrottledAttempt attempt, Instant now) {
      log.add("passed over " + name);
    }
  }

  Scripted runs(String name, int order) {
    return new Scripted(name, order, () -> ThrottleDecision.Run.now(Permit.NOTHING), Set.of(name));
  }

  Scripted says(String name, int order, ThrottleDecision decision) {
    return new Scripted(name, order, () -> decision, Set.of());
  }

  @Test
  void throttlesAreAcquiredByOrderThenNameAndReleasedTheOtherWayRound() {
    ThrottleChain chain =
        ThrottleChain.of(
            List.of(
                runs("rate", Throttle.BUDGETS),
                runs("semaphore", Throttle.RESOURCES),
                runs("mutex", Throttle.RESOURCES)));

    var admitted = (ThrottleChain.Admission.Admitted) chain.acquire(ATTEMPT, NOW);
    Set<String> freed = admitted.permits().release(AttemptEnd.COMPLETED);

    assertThat(log)
        .containsExactly(
            "acquire mutex",
            "acquire semaphore",
            "acquire rate",
            "release rate COMPLETED",
            "release semaphore COMPLETED",
            "release mutex COMPLETED");
    assertThat(freed).containsExactlyInAnyOrder("mutex", "semaphore", "rate");
  }

  @Test
  void aRefusalGivesBackWhatWasAcquiredAndAsksNoFurther() {
    ThrottleDecision wait = new ThrottleDecision.WaitForRelease("db-lock");
    ThrottleChain chain =
        ThrottleChain.of(
            List.of(
                runs("a", Throttle.RESOURCES),
                says("b", Throttle.RESOURCES, wait),
                runs("c", Throttle.BUDGETS)));

    var refused = (ThrottleChain.Admission.Refused) chain.acquire(ATTEMPT, NOW);

    assertThat(refused.by()).isEqualTo("b");
    assertThat(refused.decision()).isEqualTo(wait);
    assertThat(refused.freed()).containsExactly("a");
    assertThat(log)
        .containsExactly("acquire a", "acquire b", "release a NOT_STARTED", "passed over c");
  }

  @Test
  void theBudgetSpentByTimeIsAskedLastAndOnlyOnceTheOthersLetTheAttemptRun() {
    ThrottleDecision full = new ThrottleDecision.RetryAt(NOW.plusSeconds(10));
    ThrottleChain chain =
        ThrottleChain.of(
            List.of(
                runs("rate-limit", Throttle.BUDGETS),
                says("sliding-window:partner", Throttle.WINDOWS, full),
                runs("mutex", Throttle.RESOURCES)));

    var refused = (ThrottleChain.Admission.Refused) chain.acquire(ATTEMPT, NOW);

    assertThat(refused.by()).isEqualTo("sliding-window:partner");
    assertThat(log)
        .containsExactly(
            "acquire mutex",
            "acquire sliding-window:partner",
            "release mutex NOT_STARTED",
            "passed over rate-limit");
  }

  @Test
  void aChainHasAtMostOneBudgetSpentByTime() {
    assertThatThrownBy(
            () ->
                ThrottleChain.of(
                    List.of(runs("rate-limit", Throttle.BUDGETS), runs("quota", Throttle.BUDGETS))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("quota and rate-limit");
  }

  @Test
  void theLatestSlotOfTheThrottlesIsWhenItStarts() {
    Instant early = NOW.plusMillis(20);
    Instant late = NOW.plusMillis(50);
    ThrottleChain chain =
        ThrottleChain.of(
            List.of(
                says("a", 1, new ThrottleDecision.Run(Permit.NOTHING, late)),
                says("b", 2, new ThrottleDecision.Run(Permit.NOTHING, early)),
                runs("c", 3)));

    var admitted = (ThrottleChain.Admission.Admitted) chain.acquire(ATTEMPT, NOW);

    assertThat(admitted.startAt()).isEqualTo(late);
  }

  @Test
  void aThrottleThatThrowsGivesBackTheOthersAndTheErrorGoesOn() {
    ThrottleChain chain =
        ThrottleChain.of(
            List.of(
                runs("a", 1),
                new Scripted(
                    "b",
                    2,
                    () -> {
                      throw new IllegalStateException("grid down");
                    },
                    Set.of())));

    assertThatThrownBy(() -> chain.acquire(ATTEMPT, NOW)).hasMessage("grid down");
    assertThat(log).containsExactly("acquire a", "acquire b", "release a NOT_STARTED");
  }

  @Test
  void permitsAreGivenBackExactlyOnceWhoeverCallsAndHowOften() throws Exception {
    ThrottleChain chain = ThrottleChain.of(List.of(runs("a", 1), runs("b", 2)));
    var admitted = (ThrottleChain.Admission.Admitted) chain.acquire(ATTEMPT, NOW);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    CountDownLatch go = new CountDownLatch(1);
    try {
      for (int i = 0; i < 8; i++) {
        AttemptEnd end = AttemptEnd.values()[i % AttemptEnd.values().length];
        threads.execute(
            () -> {
              try {
                go.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              admitted.permits().release(end);
            });
      }
      go.countDown();
    } finally {
      threads.shutdown();
      assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(log.stream().filter(l -> l.startsWith("release a"))).hasSize(1);
    assertThat(log.stream().filter(l -> l.startsWith("release b"))).hasSize(1);
    assertThat(admitted.permits().released()).isTrue();
    assertThat(admitted.permits().release(AttemptEnd.COMPLETED)).isEmpty();
  }

  @Test
  void aReleaseThatFailsDoesNotKeepTheOthersFromTheirs() {
    Scripted broken =
        new Scripted("a", 1, () -> ThrottleDecision.Run.now(Permit.NOTHING), Set.of()) {
          @Override
          public Set<String> release(Permit permit, AttemptEnd end) {
            throw new IllegalStateException("lost");
          }
        };
    ThrottleChain chain = ThrottleChain.of(List.of(broken, runs("b", 2)));
    var admitted = (ThrottleChain.Admission.Admitted) chain.acquire(ATTEMPT, NOW);

    assertThat(admitted.permits().release(AttemptEnd.FAILED)).containsExactly("b");
  }

  @Test
  void twoThrottlesOfOneNameAreRefused() {
    assertThatThrownBy(() -> ThrottleChain.of(List.of(runs("a", 1), runs("a", 2))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two throttles are named a");
  }

  @Test
  void withoutThrottlesEveryAttemptRunsHoldingNothing() {
    var admitted =
        (ThrottleChain.Admission.Admitted) ThrottleChain.of(List.of()).acquire(ATTEMPT, NOW);

    assertThat(admitted.startAt()).isNull();
    assertThat(admitted.permits().release(AttemptEnd.COMPLETED)).isEmpty();
  }
}
