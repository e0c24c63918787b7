package io.taskgate.engine.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.store.StoredTask;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The door: chains built from every kind, and each question routed to the kinds. */
class ThrottlesTest {
  static final Instant NOW = ThrottleChainTest.NOW;
  static final HandlerInfo HANDLER = ThrottleChainTest.ATTEMPT.handler();
  static final StoredTask TASK = ThrottleChainTest.ATTEMPT.task();

  /** A throttle that lets every attempt run, holding a permit that remembers a slot. */
  record Plain(String name, int order, Instant slot, List<String> log) implements Throttle {
    @Override
    public ThrottleDecision acquire(ThrottledAttempt attempt, Instant now) {
      return ThrottleDecision.Run.now(new Held(slot));
    }

    @Override
    public Set<String> release(Permit permit, AttemptEnd end) {
      return Set.of();
    }

    @Override
    public StartCheck startOf(Permit permit, UUID taskId) {
      log.add("start check of " + name);
      return new StartCheck() {};
    }

    @Override
    public void claimedAhead(Permit permit, UUID taskId) {
      log.add("claimed ahead " + name);
    }

    @Override
    public void leftWaiting(Permit permit, UUID taskId) {
      log.add("left waiting " + name);
    }

    @Override
    public Instant pushedBack(
        Permit permit, UUID taskId, Instant until, Instant now, String reason) {
      return order >= BUDGETS ? now : null;
    }
  }

  record Held(Instant heldUntil) implements Permit {}

  /** A kind with one throttle and scripted answers. */
  record Kind(
      Throttle throttle, Instant estimate, Duration lead, StoredTask copy, boolean semaphore)
      implements ThrottleProvider {
    @Override
    public List<? extends Throttle> throttlesOf(HandlerInfo handler) {
      return List.of(throttle);
    }

    @Override
    public Instant estimatedStart(HandlerInfo handler, String key, Instant due, Instant now) {
      return estimate;
    }

    @Override
    public Duration claimAhead() {
      return lead;
    }

    @Override
    public StoredTask waitingCopy(UUID taskId) {
      return copy != null && copy.id().equals(taskId) ? copy : null;
    }

    @Override
    public boolean cancelled(UUID taskId) {
      return waitingCopy(taskId) != null;
    }

    @Override
    public boolean handsOverOnRelease(String resource) {
      return semaphore && resource.startsWith("semaphore:");
    }
  }

  final List<String> log = new ArrayList<>();
  final Plain rate = new Plain("rate", Throttle.BUDGETS, NOW.plusSeconds(2), log);
  final Plain mutex = new Plain("mutex", Throttle.RESOURCES, NOW.plusSeconds(1), log);
  final Throttles throttles =
      Throttles.of(
          List.of(
              new Kind(rate, NOW.plusSeconds(30), Duration.ofMillis(100), TASK, false),
              new Kind(mutex, NOW.plusSeconds(10), Duration.ZERO, null, true)));

  @Test
  void aTaskTypesChainHoldsEveryKindsThrottlesInTheGlobalOrderAndIsBuiltOnce() {
    ThrottleChain chain = throttles.chainOf(HANDLER);

    assertThat(chain.throttles()).containsExactly(mutex, rate);
    assertThat(throttles.chainOf(HANDLER)).isSameAs(chain);
    assertThat(Throttles.of(List.of()).chainOf(HANDLER)).isSameAs(ThrottleChain.NONE);
  }

  @Test
  void theKindsAreAskedAndTheirAnswersCombined() {
    Instant due = NOW.plusSeconds(5);

    assertThat(throttles.estimatedStart(HANDLER, "acme", due, NOW)).isEqualTo(NOW.plusSeconds(30));
    assertThat(throttles.estimatedStart(HANDLER, "acme", NOW.plusSeconds(60), NOW))
        .isEqualTo(NOW.plusSeconds(60));
    assertThat(throttles.claimAhead()).isEqualTo(Duration.ofMillis(100));
    assertThat(throttles.waitingCopy(TASK.id())).isSameAs(TASK);
    assertThat(throttles.waitingCopy(UUID.randomUUID())).isNull();
    assertThat(throttles.cancelled(TASK.id())).isTrue();
    assertThat(throttles.cancelled(UUID.randomUUID())).isFalse();
    assertThat(throttles.handsOverOnRelease("semaphore:db")).isTrue();
    assertThat(throttles.handsOverOnRelease("mutex:db")).isFalse();
  }

  @Test
  void aFreedResourceReachesTheEngineAndNothingFreedDoesNot() {
    List<Set<String>> woken = new ArrayList<>();
    throttles.onFreed(woken::add);

    throttles.freed(Set.of());
    throttles.freed(Set.of("mutex:db"));

    assertThat(woken).containsExactly(Set.of("mutex:db"));
  }

  @Test
  void anAdmittedAttemptsPermitsAnswerForItsThrottles() {
    var admitted =
        (ThrottleChain.Admission.Admitted)
            throttles.chainOf(HANDLER).acquire(ThrottleChainTest.ATTEMPT, NOW);
    Permits permits = admitted.permits();

    assertThat(permits.heldUntil()).isEqualTo(NOW.plusSeconds(2));
    permits.startCheck(TASK.id());
    permits.claimedAhead(TASK.id());
    permits.leftWaiting(TASK.id());
    assertThat(log)
        .containsExactly(
            "start check of rate",
            "claimed ahead mutex",
            "claimed ahead rate",
            "left waiting mutex",
            "left waiting rate");
    assertThat(permits.pushedBack(TASK.id(), NOW.plusSeconds(60), NOW, "slow down")).isEqualTo(NOW);
  }

  @Test
  void withNoThrottleAskingToMoveIt_aPushedBackTaskWaitsTheRetryAfter() {
    Throttles mutexOnly = Throttles.of(List.of(new Kind(mutex, NOW, Duration.ZERO, null, false)));
    var admitted =
        (ThrottleChain.Admission.Admitted)
            mutexOnly.chainOf(HANDLER).acquire(ThrottleChainTest.ATTEMPT, NOW);

    assertThat(admitted.permits().pushedBack(TASK.id(), NOW.plusSeconds(60), NOW, "slow down"))
        .isEqualTo(NOW.plusSeconds(60));
    assertThat(admitted.permits().startCheck(TASK.id())).isSameAs(StartCheck.NONE);
    assertThat(log).isEmpty();
  }
}
