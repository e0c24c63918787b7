package io.taskgate.engine.throttle.pause;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Handler;
import io.taskgate.api.PauseScope;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.TaskgateExtension;
import io.taskgate.engine.throttle.Pausing;
import io.taskgate.engine.throttle.ResourceWaiters;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.Pause;
import io.taskgate.store.StoredTask;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaPauseStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pauses as a throttle, on a real store (H2 in memory): what a paused task is answered, what a
 * resume wakes, and what a second instance (another {@link Pauses} on the same database) and a
 * restart see.
 */
class PausesTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  /** A mail to send. */
  public record Mail(String to) implements Task {}

  @TaskHandler
  static class MailHandler implements Handler<Mail> {
    @Override
    public void handle(Mail task, TaskContext context) {}
  }

  EntityManagerFactory factory;
  JpaPauseStore store;
  Throttles throttles = Throttles.of(List.of());
  List<String> woken = new ArrayList<>();
  Pauses pauses;

  @BeforeEach
  void open() {
    factory = H2TestDatabase.inMemory("pauses-engine");
    store = new JpaPauseStore(new ResourceLocalTransactor(factory));
    throttles.onFreed(
        freed -> { // as the engine's wake-ups do: each release wakes the first waiter
          woken.addAll(freed);
          freed.forEach(throttles.waiters()::released);
        });
    pauses = instance(throttles);
  }

  @AfterEach
  void close() {
    factory.close();
  }

  Pauses instance(Throttles on) {
    Pauses p = new Pauses(store, on, InstantSource.fixed(T0));
    p.start(List.of(), null, null);
    return p;
  }

  static HandlerInfo handler() {
    return TaskgateExtension.describe(
        MailHandler.class, MailHandler.class.getAnnotation(TaskHandler.class));
  }

  static StoredTask task(String queue, String rateKey) {
    return StoredTask.queued(
            UUID.randomUUID(), Mail.class.getName(), "{}", queue, null, T0, null, T0)
        .withRateKey(rateKey);
  }

  ThrottleDecision acquire(Pauses on, StoredTask task) {
    Throttle pause = on.throttlesOf(handler()).get(0);
    return pause.acquire(new ThrottledAttempt(task, handler(), new Mail("a")), T0);
  }

  @Test
  void withNothingPausedEveryTaskGoesOnAndThePauseComesFirstInItsChain() {
    assertThat(acquire(pauses, task("emails", "acme"))).isInstanceOf(ThrottleDecision.Run.class);
    Throttle pause = pauses.throttlesOf(handler()).get(0);
    assertThat(pause.order()).isLessThan(Throttle.RESOURCES);
    assertThat(ThrottleChain.of(List.of(pause)).throttles()).containsExactly(pause);
  }

  @Test
  void aPausedQueueTypeOrKeyHoldsItsTasksOnlyAndNamesThePauseTheyWaitFor() {
    pauses.pause(PauseScope.QUEUE, "emails", "alice", "mail server down");

    assertThat(acquire(pauses, task("emails", null)))
        .isEqualTo(new ThrottleDecision.WaitForRelease("pause:queue:emails"));
    assertThat(acquire(pauses, task("reports", "acme"))).isInstanceOf(ThrottleDecision.Run.class);

    pauses.pause(PauseScope.KEY, "acme", "alice", null);
    assertThat(acquire(pauses, task("reports", "acme")))
        .isEqualTo(new ThrottleDecision.WaitForRelease("pause:key:acme"));
    assertThat(acquire(pauses, task("reports", "ACME"))).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(acquire(pauses, task("reports", null))).isInstanceOf(ThrottleDecision.Run.class);

    pauses.pause(PauseScope.TYPE, Mail.class.getName(), "alice", null);
    assertThat(acquire(pauses, task("reports", null)))
        .isEqualTo(new ThrottleDecision.WaitForRelease("pause:type:" + Mail.class.getName()));
    assertThat(pauses.holding(task("emails", "acme")).map(Pause::describe))
        .as("its queue's pause first")
        .contains("queue emails");
  }

  @Test
  void aResumeWakesEveryTaskWaitingForItAndCountsAReleaseEvenWithNoneWaiting() {
    pauses.pause(PauseScope.QUEUE, "emails", "alice", null);
    ResourceWaiters waiters = throttles.waiters();
    for (int i = 0; i < 3; i++) {
      waiters.waitFor("pause:queue:emails", UUID.randomUUID(), "emails", waiters.releases());
    }
    UUID semaphoreWaiter = UUID.randomUUID();
    waiters.waitFor("semaphore:s", semaphoreWaiter, "emails", waiters.releases());
    assertThat(pauses.waiting(PauseScope.QUEUE, "emails")).isEqualTo(3);

    assertThat(pauses.resume(PauseScope.QUEUE, "emails", "bob")).isPresent();

    assertThat(woken)
        .containsExactly("pause:queue:emails", "pause:queue:emails", "pause:queue:emails");
    assertThat(acquire(pauses, task("emails", null))).isInstanceOf(ThrottleDecision.Run.class);
    assertThat(store.pauses()).isEmpty();

    // a task that found the pause in force just before the resume does not wait for it after
    pauses.pause(PauseScope.QUEUE, "emails", "alice", null);
    long seen = waiters.releases(); // read before its throttles were asked
    woken.clear();
    pauses.resume(PauseScope.QUEUE, "emails", "bob");
    assertThat(woken).containsExactly("pause:queue:emails");
    assertThat(waiters.waitFor("pause:queue:emails", UUID.randomUUID(), "emails", seen))
        .as("it tries again instead of waiting")
        .isFalse();
    assertThat(waiters.waitingIds()).containsExactly(semaphoreWaiter);
  }

  @Test
  void aCancelledTaskStopsWaitingForItsPauseAndATaskWaitingForAThrottlerIsLeftToIt() {
    pauses.pause(PauseScope.QUEUE, "emails", "alice", null);
    ResourceWaiters waiters = throttles.waiters();
    UUID paused = UUID.randomUUID();
    UUID semaphore = UUID.randomUUID();
    waiters.waitFor("pause:queue:emails", paused, "emails", waiters.releases());
    waiters.waitFor("semaphore:s", semaphore, "emails", waiters.releases());

    assertThat(pauses.cancelled(paused)).isTrue();
    assertThat(pauses.cancelled(semaphore)).isFalse();

    assertThat(waiters.waitingIds()).containsExactly(semaphore);
  }

  @Test
  void anotherInstanceHoldsThePausedTasksAfterItsNextReadAndWakesThemWhenThePauseEnds() {
    Throttles there = Throttles.of(List.of());
    List<Set<String>> wokenThere = new ArrayList<>();
    there.onFreed(
        freed -> {
          wokenThere.add(freed);
          freed.forEach(there.waiters()::released);
        });
    Pauses other = instance(there);

    pauses.pause(PauseScope.KEY, "acme", "alice", null);
    assertThat(acquire(other, task("default", "acme"))).isInstanceOf(ThrottleDecision.Run.class);
    other.refresh();
    assertThat(acquire(other, task("default", "acme")))
        .isEqualTo(new ThrottleDecision.WaitForRelease("pause:key:acme"));
    there.waiters().waitFor("pause:key:acme", UUID.randomUUID(), "default", 0);
    there.waiters().waitFor("pause:key:acme", UUID.randomUUID(), "default", 0);

    pauses.resume(PauseScope.KEY, "acme", "bob");
    assertThat(wokenThere).isEmpty();
    other.refresh();

    assertThat(wokenThere).containsExactly(Set.of("pause:key:acme"), Set.of("pause:key:acme"));
    assertThat(there.waiters().size()).isZero();
    assertThat(acquire(other, task("default", "acme"))).isInstanceOf(ThrottleDecision.Run.class);
  }

  @Test
  void aPauseSurvivesARestart() {
    pauses.pause(PauseScope.TYPE, Mail.class.getName(), "alice", "bad release");

    Pauses restarted = instance(Throttles.of(List.of()));

    assertThat(restarted.pauses())
        .containsExactly(
            new Pause(PauseScope.TYPE, Mail.class.getName(), T0, "alice", "bad release"));
    assertThat(acquire(restarted, task("default", null)))
        .isInstanceOf(ThrottleDecision.WaitForRelease.class);
  }

  @Test
  void pausingTwiceKeepsTheFirstPause() {
    Pause first = pauses.pause(PauseScope.QUEUE, "emails", "alice", "first");

    assertThat(pauses.pause(PauseScope.QUEUE, "emails", "bob", "second")).isEqualTo(first);
    assertThat(pauses.resume(PauseScope.QUEUE, "other", "bob")).isEmpty();
  }

  @Test
  void aMissingOrTooLongNameOrReasonIsRefusedNamingTheField() {
    assertThatThrownBy(() -> pauses.pause(PauseScope.KEY, " ", "alice", null))
        .hasMessage("name is missing: the key to pause");
    assertThatThrownBy(() -> pauses.pause(null, "x", "alice", null))
        .hasMessage("scope is missing: use queue, type or key");
    assertThatThrownBy(
            () -> pauses.pause(PauseScope.KEY, "k".repeat(Pause.MAX_NAME_LENGTH + 1), "a", null))
        .hasMessage("name is 1025 characters long; at most 1024 are allowed");
    assertThatThrownBy(
            () -> pauses.pause(PauseScope.KEY, "k", "a", "r".repeat(Pause.MAX_REASON_LENGTH + 1)))
        .hasMessage("reason is 501 characters long; at most 500 are kept");
    assertThat(store.pauses()).isEmpty();
    assertThat(Pausing.resource(PauseScope.KEY, "a:b")).isEqualTo("pause:key:a:b");
  }
}
