package io.taskgate.engine.throttle.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.FixedWindow;
import io.taskgate.api.Mutex;
import io.taskgate.api.Semaphore;
import io.taskgate.api.SlidingWindow;
import io.taskgate.api.Strictness;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlerMode;
import io.taskgate.api.Throttling;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.api.UnknownThrottlerException;
import io.taskgate.api.WindowOptions;
import io.taskgate.engine.event.Counted;
import io.taskgate.engine.event.MinuteCounts;
import io.taskgate.engine.event.TaskHistory;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottleChain.Admission;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.jobs.FamilyFixture.Ship;
import io.taskgate.engine.throttle.jobs.FamilyFixture.ShipHandler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class FamilyThrottleTest {
  @TaskHandler
  @Mutex("order-{orderId}")
  static class ByOrder extends ShipHandler {}

  @TaskHandler
  @Mutex(value = "order-{orderId}", owner = "{batchId}")
  static class ByBatch extends ShipHandler {}

  @TaskHandler
  @Mutex("batch-{batchId}")
  static class ByBatchId extends ShipHandler {}

  @TaskHandler
  @Mutex("order-{orderId}")
  @Throttling(strictness = Strictness.STRICT)
  static class StrictByOrder extends ShipHandler {}

  @TaskHandler
  @Mutex(value = "order-{orderId}", mode = ThrottlerMode.RELEASE_ONLY)
  static class RetiringByOrder extends ShipHandler {}

  @TaskHandler
  @Semaphore("newsletter")
  static class Newsletter extends ShipHandler {}

  @TaskHandler
  @Semaphore("newsletter")
  @Throttling(action = ThrottlingAction.DROP)
  static class DroppingNewsletter extends ShipHandler {}

  @TaskHandler
  @Semaphore("newsletter")
  @Throttling(maxWait = "PT1M")
  static class PatientNewsletter extends ShipHandler {}

  @TaskHandler
  @FixedWindow("github")
  static class Github extends ShipHandler {}

  @TaskHandler
  @SlidingWindow("dropbox")
  static class Dropbox extends ShipHandler {}

  @TaskHandler
  @Mutex("order-{orderId}")
  @Semaphore("newsletter")
  @FixedWindow("github")
  static class AllThree extends ShipHandler {}

  @TaskHandler
  @Semaphore("newsletter")
  @Throttling(strictness = Strictness.STRICT)
  static class StrictNewsletter extends ShipHandler {}

  private final FamilyFixture f = new FamilyFixture();

  private Admission inBatch(String batch, Class<?> handler, Ship ship) {
    return f.chain(handler).acquire(f.attemptIn(batch, handler, ship), f.clock.instant());
  }

  private Admission.Admitted admitted(Class<?> handler, Ship ship) {
    return admitted(f.chain(handler).acquire(f.attempt(handler, ship), f.clock.instant()));
  }

  private static Admission.Admitted admitted(Admission admission) {
    assertThat(admission).isInstanceOf(Admission.Admitted.class);
    return (Admission.Admitted) admission;
  }

  private ThrottleDecision refused(Class<?> handler, Ship ship) {
    Admission admission = f.chain(handler).acquire(f.attempt(handler, ship), f.clock.instant());
    assertThat(admission).isInstanceOf(Admission.Refused.class);
    return ((Admission.Refused) admission).decision();
  }

  @Test
  void aMutexKeepsTwoTasksOfOneOrderApartWhileOtherOrdersRun() {
    Admission.Admitted first = admitted(ByOrder.class, Ship.order(1));

    assertThat(refused(ByOrder.class, Ship.order(1)))
        .isEqualTo(
            new ThrottleDecision.WaitForRelease(
                "mutex:order-1", f.clock.instant().plusSeconds(30)));
    admitted(ByOrder.class, Ship.order(2));

    assertThat(first.permits().release(AttemptEnd.COMPLETED)).containsExactly("mutex:order-1");
    admitted(ByOrder.class, Ship.order(1));
  }

  /** Seed 001: ids differing in more than case never share a throttler. */
  @Test
  void idsThatDifferInMoreThanCaseAreMutexesOfTheirOwn() {
    for (String batch : List.of("a/1", "a_1", "a 1", "café", "caf_")) {
      admitted(ByBatchId.class, new Ship(1, batch, null));
    }

    assertThat(refused(ByBatchId.class, new Ship(2, "A/1", null)))
        .isEqualTo(
            new ThrottleDecision.WaitForRelease(
                "mutex:batch-a/1", f.clock.instant().plusSeconds(30)));
    assertThat(refused(ByBatchId.class, new Ship(2, "CAFÉ", null)))
        .isEqualTo(
            new ThrottleDecision.WaitForRelease(
                "mutex:batch-café", f.clock.instant().plusSeconds(30)));
  }

  @Test
  void aBatchHoldsOneMutexAndItsTasksRunSideBySide() {
    Admission.Admitted a = admitted(ByBatch.class, new Ship(1, "b1", "acme"));
    Admission.Admitted b = admitted(ByBatch.class, new Ship(1, "b1", "acme"));

    refused(ByBatch.class, new Ship(1, "b2", "acme"));

    assertThat(a.permits().release(AttemptEnd.COMPLETED)).isEmpty();
    refused(ByBatch.class, new Ship(1, "b2", "acme"));
    assertThat(b.permits().release(AttemptEnd.FAILED)).containsExactly("mutex:order-1");
    admitted(ByBatch.class, new Ship(1, "b2", "acme"));
  }

  @Test
  void anotherExecutionOfTheSameTaskCountsAsOneHolder() {
    UUID id = UUID.randomUUID();
    ThrottleChain chain = f.chain(ByOrder.class);
    admitted(chain.acquire(f.attempt(ByOrder.class, id, Ship.order(1)), f.clock.instant()));

    admitted(chain.acquire(f.attempt(ByOrder.class, id, Ship.order(1)), f.clock.instant()));

    assertThat(f.family.state().holders().get("mutex:order-1")).containsOnlyKeys(id.toString());
  }

  @Test
  void aSemaphoreLetsMaxCountRunAndFailsATaskWhenItIsNotDefined() {
    ThrottleDecision unknown = refused(Newsletter.class, Ship.order(1));
    assertThat(unknown).isInstanceOf(ThrottleDecision.Reject.class);
    assertThat(((ThrottleDecision.Reject) unknown).cause())
        .isInstanceOf(UnknownThrottlerException.class)
        .hasMessageContaining("semaphore 'newsletter'")
        .hasMessageContaining(Newsletter.class.getName());

    f.manager.addOrUpdateSemaphore("newsletter", 3);
    List<Admission.Admitted> running = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      running.add(admitted(Newsletter.class, Ship.order(i)));
    }
    assertThat(refused(Newsletter.class, Ship.order(9)))
        .isInstanceOf(ThrottleDecision.WaitForRelease.class);

    assertThat(running.get(0).permits().release(AttemptEnd.COMPLETED))
        .containsExactly("semaphore:newsletter");
    admitted(Newsletter.class, Ship.order(9));
  }

  @Test
  void aLoweredSemaphoreNeverFailsAndDrains() {
    f.manager.addOrUpdateSemaphore("newsletter", 3);
    List<Admission.Admitted> running = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      running.add(admitted(Newsletter.class, Ship.order(i)));
    }

    f.manager.addOrUpdateSemaphore("newsletter", 1);

    running.get(0).permits().release(AttemptEnd.COMPLETED);
    refused(Newsletter.class, Ship.order(9));
    running.get(1).permits().release(AttemptEnd.COMPLETED);
    refused(Newsletter.class, Ship.order(9));
    running.get(2).permits().release(AttemptEnd.COMPLETED);
    admitted(Newsletter.class, Ship.order(9));
  }

  @Test
  void aFixedWindowParksUntilTheNextIntervalAndGivesBackAStartThatNeverRan() {
    f.manager.addOrUpdateWindow(
        ThrottlerKind.FIXED_WINDOW, "github", WindowOptions.fixed(5, Duration.ofSeconds(2)));
    f.clock.set(FamilyFixture.T0.plusMillis(700));
    List<Admission.Admitted> started = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      started.add(admitted(Github.class, Ship.order(i)));
    }

    assertThat(refused(Github.class, Ship.order(5)))
        .isEqualTo(new ThrottleDecision.RetryAt(FamilyFixture.T0.plusSeconds(2)));

    started.get(0).permits().release(AttemptEnd.NOT_STARTED);
    admitted(Github.class, Ship.order(5));
    started.get(1).permits().release(AttemptEnd.COMPLETED);
    refused(Github.class, Ship.order(6));
    f.clock.set(FamilyFixture.T0.plusSeconds(2));
    admitted(Github.class, Ship.order(6));
  }

  @Test
  void windowCountsAreStoredBeforeTheTaskRunsAndReadBackAfterARestart() {
    f.manager.addOrUpdateWindow(
        ThrottlerKind.SLIDING_WINDOW,
        "dropbox",
        WindowOptions.sliding(3, Duration.ofMinutes(10), 10));
    admitted(Dropbox.class, Ship.order(1));
    admitted(Dropbox.class, Ship.order(2));
    admitted(Dropbox.class, Ship.order(3)).permits().release(AttemptEnd.NOT_STARTED);
    admitted(Dropbox.class, Ship.order(4));
    assertThat(f.store.counts(0))
        .containsExactly(
            new io.taskgate.store.ThrottlerStore.WindowCount(
                "sliding-window:dropbox", null, FamilyFixture.T0.toEpochMilli(), 3));

    // a restart: a new engine over the same store, its memory empty
    FamilyFixture restarted = new FamilyFixture(f.store);
    f.clock.advance(Duration.ofMinutes(2));
    restarted.clock.set(f.clock.instant());
    restarted.family.rebuild(List.of(), null, null);

    ThrottleChain chain = restarted.chain(Dropbox.class);
    Admission admission =
        chain.acquire(restarted.attempt(Dropbox.class, Ship.order(5)), restarted.clock.instant());
    assertThat(admission).isInstanceOf(Admission.Refused.class);
    assertThat(((Admission.Refused) admission).decision())
        .as("no burst after the restart: the window opens when the first bucket leaves it")
        .isEqualTo(new ThrottleDecision.RetryAt(FamilyFixture.T0.plus(Duration.ofMinutes(10))));
  }

  @Test
  void aSlidingWindowCountsAStartInEveryIntervalOfItsBucket() {
    f.manager.addOrUpdateWindow(
        ThrottlerKind.SLIDING_WINDOW, "dropbox", WindowOptions.sliding(4, Duration.ofHours(1), 3));
    f.clock.set(FamilyFixture.T0.minusSeconds(60)); // 23:59
    for (int i = 0; i < 4; i++) {
      admitted(Dropbox.class, Ship.order(i));
    }
    f.clock.set(FamilyFixture.T0); // 00:00, a new fixed interval, the same sliding one

    assertThat(refused(Dropbox.class, Ship.order(4)))
        .isEqualTo(new ThrottleDecision.RetryAt(FamilyFixture.T0.plus(Duration.ofMinutes(40))));
  }

  @Test
  void strictKeepsTheMutexAcrossARetryAndReleasesAtTheFinalState() {
    UUID id = UUID.randomUUID();
    ThrottleChain chain = f.chain(StrictByOrder.class);
    Admission.Admitted first =
        admitted(
            chain.acquire(f.attempt(StrictByOrder.class, id, Ship.order(1)), f.clock.instant()));

    assertThat(first.permits().release(AttemptEnd.RETRIED)).isEmpty();
    refused(StrictByOrder.class, Ship.order(1));

    Admission.Admitted retry =
        admitted(
            chain.acquire(f.attempt(StrictByOrder.class, id, Ship.order(1)), f.clock.instant()));
    assertThat(retry.permits().release(AttemptEnd.NOT_STARTED))
        .as("re-entered, not taken by this attempt: still held")
        .isEmpty();
    refused(StrictByOrder.class, Ship.order(1));
    Admission.Admitted last =
        admitted(
            chain.acquire(f.attempt(StrictByOrder.class, id, Ship.order(1)), f.clock.instant()));
    assertThat(last.permits().release(AttemptEnd.COMPLETED)).containsExactly("mutex:order-1");
    admitted(StrictByOrder.class, Ship.order(1));
  }

  @Test
  void relaxedReleasesWheneverTheAttemptStopsRunning() {
    Admission.Admitted first = admitted(ByOrder.class, Ship.order(1));

    assertThat(first.permits().release(AttemptEnd.RETRIED)).containsExactly("mutex:order-1");
    admitted(ByOrder.class, Ship.order(1));
  }

  @Test
  void aStrictHolderCancelledWhileWaitingForItsRetryGivesItBack() {
    UUID id = UUID.randomUUID();
    admitted(
            f.chain(StrictByOrder.class)
                .acquire(f.attempt(StrictByOrder.class, id, Ship.order(1)), f.clock.instant()))
        .permits()
        .release(AttemptEnd.RETRIED);
    List<String> freed = new ArrayList<>();
    f.throttles.onFreed(freed::addAll);

    f.family.ended(id);

    assertThat(freed).containsExactly("mutex:order-1");
    admitted(StrictByOrder.class, Ship.order(1));
  }

  @Test
  void releaseOnlyTakesNothingAndGivesBackWhatWasHeld() {
    UUID id = UUID.randomUUID();
    admitted(
            f.chain(StrictByOrder.class)
                .acquire(f.attempt(StrictByOrder.class, id, Ship.order(1)), f.clock.instant()))
        .permits()
        .release(AttemptEnd.RETRIED);

    // the annotation turned to RELEASE_ONLY: others are no longer held back...
    admitted(RetiringByOrder.class, Ship.order(1));
    // ...and the holder's next attempt gives its mutex back when it ends
    Admission.Admitted retry =
        admitted(
            f.chain(RetiringByOrder.class)
                .acquire(f.attempt(RetiringByOrder.class, id, Ship.order(1)), f.clock.instant()));
    assertThat(retry.permits().release(AttemptEnd.COMPLETED)).containsExactly("mutex:order-1");
    assertThat(f.family.state().holders()).isEmpty();
  }

  @Test
  void severalThrottlesAreAcquiredAllOrNothingInTheGlobalOrder() {
    f.manager.addOrUpdateSemaphore("newsletter", 1);
    f.manager.addOrUpdateWindow(
        ThrottlerKind.FIXED_WINDOW, "github", WindowOptions.fixed(2, Duration.ofMinutes(1)));
    assertThat(f.chain(AllThree.class).throttles().stream().map(t -> t.name()))
        .containsExactly("mutex:order-{orderId}", "semaphore:newsletter", "fixed-window:github");

    Admission.Admitted one = admitted(AllThree.class, Ship.order(1));
    // order 2: its mutex is free, the semaphore is not: it holds nothing while it waits
    assertThat(refused(AllThree.class, Ship.order(2)))
        .isEqualTo(
            new ThrottleDecision.WaitForRelease(
                "semaphore:newsletter", f.clock.instant().plusSeconds(30)));
    assertThat(f.family.state().holders())
        .containsOnlyKeys("mutex:order-1", "semaphore:newsletter");

    one.permits().release(AttemptEnd.COMPLETED);
    admitted(AllThree.class, Ship.order(2)).permits().release(AttemptEnd.COMPLETED);
    // the window is spent (2 of 2): the resources taken before it are given back
    assertThat(refused(AllThree.class, Ship.order(3)))
        .isEqualTo(new ThrottleDecision.RetryAt(FamilyFixture.T0.plusSeconds(60)));
    assertThat(f.family.state().holders()).isEmpty();
  }

  @Test
  void dropEndsTheTaskWithAReasonNamingTheThrottle() {
    f.manager.addOrUpdateSemaphore("newsletter", 1);
    admitted(DroppingNewsletter.class, Ship.order(1));

    ThrottleDecision dropped = refused(DroppingNewsletter.class, Ship.order(2));

    assertThat(dropped)
        .isEqualTo(
            new ThrottleDecision.Drop(
                "semaphore:newsletter",
                "dropped: semaphore 'newsletter' has all its 1 permits held (throttling action"
                    + " DROP)"));
    assertThat(f.family.stats().counters().get("semaphore:newsletter").dropped()).isEqualTo(1);
  }

  @Test
  void aTaskThatWaitedLongerThanItsMaxWaitIsDropped() {
    f.manager.addOrUpdateSemaphore("newsletter", 1);
    admitted(PatientNewsletter.class, Ship.order(1));
    var waiting = f.attempt(PatientNewsletter.class, Ship.order(2));
    ThrottleChain chain = f.chain(PatientNewsletter.class);

    f.clock.advance(Duration.ofSeconds(50));
    ThrottleDecision wait =
        ((Admission.Refused) chain.acquire(waiting, f.clock.instant())).decision();
    assertThat(wait)
        .as("it looks again at its deadline, not 30 s later")
        .isEqualTo(
            new ThrottleDecision.WaitForRelease(
                "semaphore:newsletter", FamilyFixture.T0.plusSeconds(60)));

    f.clock.advance(Duration.ofSeconds(10));
    ThrottleDecision dropped =
        ((Admission.Refused) chain.acquire(waiting, f.clock.instant())).decision();
    assertThat(dropped).isInstanceOf(ThrottleDecision.Drop.class);
    assertThat(((ThrottleDecision.Drop) dropped).reason())
        .startsWith("dropped: waited longer than its max wait PT1M");
  }

  @Test
  void aTemplateThatCannotBeFilledRejectsTheTaskNamingIt() {
    ThrottleDecision rejected = refused(ByBatch.class, new Ship(1, null, "acme"));

    assertThat(rejected).isInstanceOf(ThrottleDecision.Reject.class);
    assertThat(((ThrottleDecision.Reject) rejected).reason())
        .contains("mutex:order-{orderId}@{batchId}")
        .contains("null");
  }

  @Test
  void theCountersSayWhatEachThrottleDid() {
    admitted(ByOrder.class, Ship.order(1));
    refused(ByOrder.class, Ship.order(1));

    ThrottleStats.Counters counters = f.family.stats().counters().get("mutex:order-{orderId}");
    assertThat(counters.acquired()).isEqualTo(1);
    assertThat(counters.waited()).isEqualTo(1);
    assertThat(counters.dropped()).isZero();
    assertThat(Instant.EPOCH).isBefore(f.clock.instant());
  }

  @Test
  void thePerMinuteHistoryCountsATaskMadeToWaitOnceAndEachDrop() {
    TaskHistory history = new TaskHistory();
    f.events.subscribe(Counted.class, history::count);
    f.manager.addOrUpdateSemaphore("newsletter", 1);
    admitted(ByOrder.class, Ship.order(1));
    UUID waiting = UUID.randomUUID();
    for (int i = 0; i < 3; i++) { // the same task refused again at each check
      Admission admission =
          f.chain(ByOrder.class)
              .acquire(f.attempt(ByOrder.class, waiting, Ship.order(1)), f.clock.instant());
      assertThat(admission).isInstanceOf(Admission.Refused.class);
    }
    admitted(DroppingNewsletter.class, Ship.order(2));
    refused(DroppingNewsletter.class, Ship.order(3));

    MinuteCounts.SeriesCounts counts = history.read(f.clock.instant(), 1).get(0);
    assertThat(counts.series().type()).isEqualTo(Ship.class.getName());
    assertThat(counts.total(MinuteCounts.Count.THROTTLE_WAITED)).isEqualTo(1);
    assertThat(counts.total(MinuteCounts.Count.THROTTLE_DROPPED)).isEqualTo(1);
  }

  @Test
  void theTasksOfOneWorkersBatchShareOnePermitOfARelaxedSemaphore() {
    f.manager.addOrUpdateSemaphore("newsletter", 1);
    Admission.Admitted a = admitted(inBatch("batch-1", Newsletter.class, Ship.order(1)));
    Admission.Admitted b = admitted(inBatch("batch-1", Newsletter.class, Ship.order(2)));

    assertThat(inBatch("batch-2", Newsletter.class, Ship.order(3)))
        .isInstanceOf(Admission.Refused.class);
    refused(Newsletter.class, Ship.order(4)); // a task on its own
    assertThat(f.family.state().holders().get("semaphore:newsletter")).containsOnlyKeys("batch-1");

    // they run one after another on the batch's worker: the permit frees with the last of them
    assertThat(a.permits().release(AttemptEnd.COMPLETED)).isEmpty();
    assertThat(b.permits().release(AttemptEnd.FAILED)).containsExactly("semaphore:newsletter");
    admitted(inBatch("batch-2", Newsletter.class, Ship.order(3)));
  }

  @Test
  void aStrictSemaphoresTasksHoldAPermitEachInABatchToo() {
    f.manager.addOrUpdateSemaphore("newsletter", 1);
    admitted(inBatch("batch-1", StrictNewsletter.class, Ship.order(1)));

    assertThat(inBatch("batch-1", StrictNewsletter.class, Ship.order(2)))
        .as("a strict permit may outlive its attempt: it is the task's own")
        .isInstanceOf(Admission.Refused.class);
  }
}
