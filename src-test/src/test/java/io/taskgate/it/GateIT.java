package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.InvalidTaskException;
import io.taskgate.api.QueueFullException;
import io.taskgate.api.RateLimitDeferred;
import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskReceipt;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.engine.admin.TaskAdmin;
import io.taskgate.engine.admin.dto.TaskView;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.run.AttemptRunner;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.ParkedTask;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.engine.throttle.ratelimit.StartSpacingGuard;
import io.taskgate.it.engine.GateEvents;
import io.taskgate.it.engine.GatedTasks;
import io.taskgate.it.engine.GatedTasks.Bounded;
import io.taskgate.it.engine.GatedTasks.Busy;
import io.taskgate.it.engine.GatedTasks.Cold;
import io.taskgate.it.engine.GatedTasks.Crowded;
import io.taskgate.it.engine.GatedTasks.Discarded;
import io.taskgate.it.engine.GatedTasks.Distant;
import io.taskgate.it.engine.GatedTasks.FlakyPaced;
import io.taskgate.it.engine.GatedTasks.Free;
import io.taskgate.it.engine.GatedTasks.FreeRetry;
import io.taskgate.it.engine.GatedTasks.Hot;
import io.taskgate.it.engine.GatedTasks.Lingering;
import io.taskgate.it.engine.GatedTasks.Paced;
import io.taskgate.it.engine.GatedTasks.Rhythmic;
import io.taskgate.it.engine.GatedTasks.Skipping;
import io.taskgate.it.engine.GatedTasks.Slotted;
import io.taskgate.it.engine.GatedTasks.Spaced;
import io.taskgate.it.engine.GatedTasks.TimedPaced;
import io.taskgate.it.engine.HandlerKeyedTasks.Routed;
import io.taskgate.it.engine.Probe;
import io.taskgate.it.engine.TestConfigSource;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskQuery;
import io.taskgate.store.TaskStore;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The keyed rate-limit gate in the engine, on Payara Micro: the timelines of the specification
 * (scaled to 5 per second, so that a slot is every 200 ms), parking without a worker or a write,
 * rejections, and cancelling a parked task. Every test uses keys of its own.
 */
@ExtendWith(ArquillianExtension.class)
class GateIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final long SLOT_NANOS = Duration.ofMillis(200).toNanos();

  @ArquillianResource URL baseUrl;

  @Inject TaskDispatcher dispatcher;
  @Inject TaskStore store;
  @Inject TaskQueries queries;
  @Inject AttemptRunner runner;
  @Inject RateLimitReads parkingLot;
  @Inject StartSpacingGuard spacing;
  @Inject TaskScheduler scheduler;
  @Inject KeyedRateLimiter limiter;
  @Inject Probe probe;
  @Inject GateEvents events;
  @Inject TaskQueues queues;
  @Inject TaskAdmin admin;

  @Deployment
  static WebArchive taskgateWar() {
    return EngineIT.taskgateWar();
  }

  /**
   * Tasks of several units (10 a second, burst 5: costs 5, 5, 2, 3, 1, 4, 5, 25 units in all) each
   * wait until all their units conform: every start conforms to the policy counted in units, and
   * the last one comes 2 s after the first (at one unit each it would come after 0.2 s). A task
   * costing more than the burst, or less than 1, is refused at dispatch, naming the cost.
   */
  @Test
  void aTaskOfSeveralUnitsSpendsThemAllAndOneAboveTheBurstIsRefused() throws Exception {
    String key = key();
    int[] costs = {5, 5, 2, 3, 1, 4, 5};
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < costs.length; i++) {
      receipts.add(dispatcher.dispatch(new GatedTasks.Weighted(key, key + "-" + i, costs[i])));
    }
    for (TaskReceipt receipt : receipts) {
      await(receipt.taskId(), TaskStatus.COMPLETED);
    }
    Conformance.Run run = Conformance.run();
    Conformance.Key conformance = run.key(key, Conformance.Policy.of(10, Duration.ofSeconds(1), 5));
    List<Instant> starts = new ArrayList<>();
    for (int i = 0; i < costs.length; i++) {
      Instant at = GatedTasks.WEIGHTED_STARTS.get(key + "-" + i);
      starts.add(at);
      conformance.started(new Conformance.Start(at, key + "-" + i, "here", costs[i]));
    }
    System.out.println(
        "GateIT: tasks of several units, id:cost@ms after the first: "
            + java.util.stream.IntStream.range(0, costs.length)
                .boxed()
                .sorted(java.util.Comparator.comparing(i -> starts.get(i)))
                .map(
                    i ->
                        i
                            + ":"
                            + costs[i]
                            + "@"
                            + Duration.between(java.util.Collections.min(starts), starts.get(i))
                                .toMillis())
                .toList());
    System.out.println("GateIT: tasks of several units: " + run.assertConforms());
    starts.sort(null);
    assertThat(Duration.between(starts.get(0), starts.get(starts.size() - 1)))
        .isGreaterThanOrEqualTo(Duration.ofMillis(2000).minus(Conformance.START_TOLERANCE));

    assertThatThrownBy(() -> dispatcher.dispatch(new GatedTasks.Weighted(key, key + "-big", 6)))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("rateLimitCost() must be between 1 and the burst of")
        .hasMessageContaining("WeightedHandler's rate limit for key " + key + ", 5")
        .hasMessageContaining("could never run), was 6");
    assertThatThrownBy(() -> dispatcher.dispatch(new GatedTasks.Weighted(key, key + "-nil", 0)))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("was 0");
  }

  @Test
  void twentyTasksAtOnceRunTheBurstNowAndTheRestOneSlotApart() throws Exception {
    String key = key();
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      receipts.add(dispatcher.dispatch(new Paced(key, key + "-" + i)));
    }

    for (TaskReceipt receipt : receipts) {
      await(receipt.taskId(), TaskStatus.COMPLETED);
    }
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      starts.add(GatedTasks.STARTS.get(key + "-" + i));
    }
    starts.sort(null);
    long first = starts.get(0);
    // the burst of 5 runs at once; then one task per 200 ms slot, never early
    assertThat(starts.get(4) - first).isLessThan(SLOT_NANOS);
    for (int i = 5; i < 20; i++) {
      assertThat(starts.get(i) - first)
          .as("start of the %dth task", i + 1)
          .isGreaterThanOrEqualTo((i - 4) * SLOT_NANOS - Duration.ofMillis(60).toNanos());
    }
    assertThat(starts.get(19) - first).isGreaterThanOrEqualTo(15 * SLOT_NANOS - millis(60));
  }

  @Test
  void aParkedTaskStaysQueuedWithoutAWriteUntilItsSlot() throws Exception {
    String key = key();
    Instant before = Instant.now();
    for (int i = 0; i < 5; i++) {
      dispatcher.dispatch(new Paced(key, key + "-burst-" + i));
    }
    for (int i = 0; i < 4; i++) {
      dispatcher.dispatch(new Paced(key, key + "-paced-" + i));
    }
    // the tenth: five slots away, so that it is still parked (not yet claimed ahead of its slot)
    // when the test reads the store, however slow the machine
    TaskReceipt tenth = dispatcher.dispatch(new Paced(key, key + "-tenth"));

    awaitParked(tenth.taskId());
    ParkedTask parked = parkingLot.parkedTask(tenth.taskId()).orElse(null);
    assertThat(parked.key()).isEqualTo(key);
    assertThat(parked.slot()).isAfter(Instant.now().minusMillis(1));
    // the idle key's reservations count from when its burst will really start: at least the
    // gate's 20 ms start lead after the decision, plus the spacing's 5 ms margin, then five slots
    assertThat(parked.slot()).isAfterOrEqualTo(before.plusMillis(20 + 5 + 5 * 200));
    StoredTask queued = store.find(tenth.taskId()).orElseThrow();
    assertThat(queued.status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(queued.version()).isZero(); // nothing written for the deferral
    // every audit row of the task, notes included: only the insert's
    assertThat(queries.history(tenth.taskId()))
        .extracting(TaskAudit::from, TaskAudit::to)
        .containsExactly(tuple(null, TaskStatus.QUEUED));

    await(tenth.taskId(), TaskStatus.COMPLETED);
    assertThat(parkingLot.parkedTask(tenth.taskId())).isEmpty();
    // longer than the notes' flush interval (1 s) after the parking: still no row about it, only
    // the start and the end
    Thread.sleep(1_500);
    assertThat(queries.history(tenth.taskId()))
        .extracting(TaskAudit::from, TaskAudit::to)
        .containsExactly(
            tuple(null, TaskStatus.QUEUED),
            tuple(TaskStatus.QUEUED, TaskStatus.IN_PROGRESS),
            tuple(TaskStatus.IN_PROGRESS, TaskStatus.COMPLETED));
    assertThat(store.find(tenth.taskId()).orElseThrow().version())
        .as("the claim and the completion, one write each")
        .isEqualTo(2);
    // the handler learns the slot it waited for, and it did not start before it
    Instant[] throttled = GatedTasks.THROTTLED.get(key + "-tenth");
    assertThat(throttled[0]).isEqualTo(parked.slot());
    assertThat(throttled[1]).isAfterOrEqualTo(parked.slot());
    assertThat(GatedTasks.THROTTLED).doesNotContainKey(key + "-burst-0");
  }

  @Test
  void burstOneSpacesEveryTaskOneSlotApart() throws Exception {
    String key = key();
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      receipts.add(dispatcher.dispatch(new Spaced(key, key + "-" + i)));
    }
    for (TaskReceipt receipt : receipts) {
      await(receipt.taskId(), TaskStatus.COMPLETED);
    }
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      starts.add(GatedTasks.STARTS.get(key + "-" + i));
    }
    starts.sort(null);
    for (int i = 1; i < 4; i++) {
      assertThat(starts.get(i) - starts.get(i - 1)).isGreaterThanOrEqualTo(SLOT_NANOS - millis(60));
    }
  }

  @Test
  void startEmptyRunsTheFirstTaskNowAndPacesTheRestFromTheStart() throws Exception {
    String key = key();
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      receipts.add(dispatcher.dispatch(new Cold(key, key + "-" + i)));
    }
    for (TaskReceipt receipt : receipts) {
      await(receipt.taskId(), TaskStatus.COMPLETED);
    }

    // with the full burst of 5 saved up all three would run at once; starting empty, they are
    // paced one slot apart from the first
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      starts.add(GatedTasks.STARTS.get(key + "-" + i));
    }
    starts.sort(null);
    assertThat(starts.get(1) - starts.get(0)).isGreaterThanOrEqualTo(SLOT_NANOS - millis(60));
    assertThat(starts.get(2) - starts.get(0)).isGreaterThanOrEqualTo(2 * SLOT_NANOS - millis(60));
  }

  @Test
  void aHotKeyNeverDelaysAnotherKeyOrAnUnthrottledTaskEvenWithOneWorker() throws Exception {
    String hot = key();
    String cold = key();
    TaskReceipt first = dispatcher.dispatch(new Hot(hot, hot + "-1"));
    TaskReceipt second = dispatcher.dispatch(new Hot(hot, hot + "-2"));
    TaskReceipt third = dispatcher.dispatch(new Hot(hot, hot + "-3"));
    await(first.taskId(), TaskStatus.COMPLETED);
    awaitParked(third.taskId());
    long start = System.nanoTime();

    TaskReceipt other = dispatcher.dispatch(new Hot(cold, cold));
    TaskReceipt free = dispatcher.dispatch(new Free(cold + "-free"));

    await(other.taskId(), TaskStatus.COMPLETED);
    await(free.taskId(), TaskStatus.COMPLETED);
    long waited = System.nanoTime() - start;
    // the "gated" queue has one worker; the hot key's next slot is 10 s away
    assertThat(waited).isLessThan(Duration.ofSeconds(3).toNanos());
    assertThat(store.find(second.taskId()).orElseThrow().status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(store.find(third.taskId()).orElseThrow().status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(parkingLot.parkedTask(second.taskId())).isPresent();
    assertThat(parkingLot.parkedTask(third.taskId())).isPresent();
    dispatcher.cancel(second.taskId());
    dispatcher.cancel(third.taskId());
  }

  @Test
  void discardFailsTheTaskWithTheTypedExceptionToOnError() throws Exception {
    String key = key();
    TaskReceipt first = dispatcher.dispatch(new Discarded(key, key + "-1"));
    await(first.taskId(), TaskStatus.COMPLETED);

    TaskReceipt second = dispatcher.dispatch(new Discarded(key, key + "-2"));

    StoredTask failed = await(second.taskId(), TaskStatus.FAILED);
    assertThat(failed.lastError())
        .startsWith("io.taskgate.api.RateLimitRejectedException")
        .contains("key=" + key);
    awaitEvent(key + "-2");
    assertThat(probe.events(key + "-2"))
        .singleElement()
        .asString()
        .startsWith("error:RateLimitRejectedException:")
        .contains("DISCARDED");
    assertThat(probe.events(key + "-2")).noneMatch(e -> e.equals("handle"));
  }

  @Test
  void aSlotBeyondTheHorizonFailsTheTaskWithoutSpendingBudget() throws Exception {
    String key = key();
    TaskReceipt first = dispatcher.dispatch(new Distant(key, key + "-1"));
    await(first.taskId(), TaskStatus.COMPLETED);

    TaskReceipt second = dispatcher.dispatch(new Distant(key, key + "-2"));

    StoredTask failed = await(second.taskId(), TaskStatus.FAILED);
    assertThat(failed.lastError()).contains("BEYOND_HORIZON");
    awaitEvent(key + "-2");
    assertThat(probe.events(key + "-2"))
        .singleElement()
        .asString()
        .startsWith("error:RateLimitRejectedException:");
  }

  @Test
  void aRetryWaitsForBudgetOutsideItsBackoff() throws Exception {
    String key = key();
    TaskReceipt receipt = dispatcher.dispatch(new FlakyPaced(key, key));

    await(receipt.taskId(), TaskStatus.COMPLETED);

    assertThat(probe.events(key)).containsExactly("attempt:1", "retry:1:50", "attempt:2");
    long gap = GatedTasks.STARTS.get(key + "#2") - GatedTasks.STARTS.get(key + "#1");
    // 1 per second: the retry, due after 50 ms, parks until the next slot a second after the first
    assertThat(gap).isGreaterThanOrEqualTo(Duration.ofMillis(900).toNanos());
  }

  /**
   * A per-attempt timeout and a parked retry: the retry waits about 2 s for its key's slot, four
   * times the 500 ms timeout, and is not timed out: the wait is outside the attempt.
   */
  @Test
  void aRetryParkedLongerThanTheTimeoutIsNotTimedOut() throws Exception {
    String key = key();
    TaskReceipt receipt = dispatcher.dispatch(new TimedPaced(key, key));

    await(receipt.taskId(), TaskStatus.COMPLETED);

    assertThat(probe.events(key)).containsExactly("attempt:1", "attempt:2");
    long gap = GatedTasks.STARTS.get(key + "#2") - GatedTasks.STARTS.get(key + "#1");
    assertThat(gap).isGreaterThanOrEqualTo(Duration.ofMillis(1_900).toNanos());
    assertThat(store.find(receipt.taskId()).orElseThrow().lastError())
        .doesNotContain("TaskTimeoutException");
  }

  /**
   * {@code throttleRetries = false}: a retry does not wait for budget (the key's next slot is an
   * hour away), while a new task of the key does.
   */
  @Test
  void unthrottledRetriesRunAtTheirBackoffWhileNewTasksOfTheKeyPark() throws Exception {
    String key = key();
    TaskReceipt receipt = dispatcher.dispatch(new FreeRetry(key, key + "-1"));

    await(receipt.taskId(), TaskStatus.COMPLETED);

    assertThat(probe.events(key + "-1")).containsExactly("attempt:1", "attempt:2");
    long gap = GatedTasks.STARTS.get(key + "-1#2") - GatedTasks.STARTS.get(key + "-1#1");
    assertThat(gap).as("the backoff, not an hour").isLessThan(Duration.ofSeconds(5).toNanos());
    TaskReceipt next = dispatcher.dispatch(new FreeRetry(key, key + "-2"));
    awaitParked(next.taskId());
    assertThat(parkingLot.parkedTask(next.taskId()).orElseThrow().slot())
        .isAfter(Instant.now().plus(Duration.ofMinutes(50)));
    assertThat(dispatcher.cancel(next.taskId())).isTrue();
  }

  @Test
  void cancellingAParkedTaskDropsItsReservationAndTimer() throws Exception {
    String key = key();
    TaskReceipt first = dispatcher.dispatch(new Hot(key, key + "-1"));
    await(first.taskId(), TaskStatus.COMPLETED);
    TaskReceipt parked = dispatcher.dispatch(new Hot(key, key + "-2"));
    awaitParked(parked.taskId());
    int pendingBefore = limiter.stats().pendingReservations();

    assertThat(dispatcher.cancel(parked.taskId())).isTrue();

    assertThat(store.find(parked.taskId()).orElseThrow().status()).isEqualTo(TaskStatus.CANCELLED);
    assertThat(parkingLot.parkedTask(parked.taskId())).isEmpty();
    assertThat(scheduler.holds(parked.taskId())).isFalse();
    assertThat(limiter.stats().pendingReservations()).isEqualTo(pendingBefore - 1);
    assertThat(probe.events(key + "-2")).isEmpty();
  }

  @Test
  void aParkedTaskIsClaimedShortlyBeforeItsSlotAndStartsAtItNotBefore() throws Exception {
    String key = key();
    TaskReceipt second = parkedBehindAFirst(key);
    Instant slot = parkingLot.parkedTask(second.taskId()).orElse(null).slot();

    await(second.taskId(), TaskStatus.COMPLETED);

    // the claim (QUEUED -> IN_PROGRESS) was stored within claim-ahead (100 ms) before the slot,
    // so the start did not wait for it; the handler started at the slot, never before
    TaskAudit claimed =
        queries.history(second.taskId()).stream()
            .filter(a -> a.to() == TaskStatus.IN_PROGRESS)
            .findFirst()
            .orElseThrow();
    assertThat(claimed.at()).isBefore(slot).isAfterOrEqualTo(slot.minusMillis(103));
    Instant[] throttled = GatedTasks.THROTTLED.get(key + "-2");
    assertThat(throttled[0]).isEqualTo(slot);
    assertThat(throttled[1]).isAfterOrEqualTo(slot);
    assertThat(statusChanges(second.taskId()))
        .containsExactly(TaskStatus.QUEUED, TaskStatus.IN_PROGRESS, TaskStatus.COMPLETED);
    assertThat(parkingLot.parkedTask(second.taskId())).isEmpty();
  }

  @Test
  void aTaskClaimedAheadOfItsSlotCanStillBeCancelledAndNeverRuns() throws Exception {
    String key = key();
    TaskReceipt second = parkedBehindAFirst(key);
    Instant slot = parkingLot.parkedTask(second.taskId()).orElse(null).slot();
    Await.until(
        () -> store.find(second.taskId()).orElseThrow().status(),
        TaskStatus.IN_PROGRESS::equals,
        TIMEOUT,
        Duration.ofMillis(2),
        seen -> "task " + second.taskId() + " was never claimed: " + seen);
    assertThat(Instant.now()).as("seen claimed before its slot").isBefore(slot);

    assertThat(dispatcher.cancel(second.taskId())).isTrue();

    StoredTask cancelled = store.find(second.taskId()).orElseThrow();
    assertThat(cancelled.status()).isEqualTo(TaskStatus.CANCELLED);
    assertThat(cancelled.attempt()).isZero(); // it never started
    assertThat(parkingLot.parkedTask(second.taskId())).isEmpty();
    assertThat(scheduler.hasTimer(second.taskId())).isFalse();
    // real time passing is what is tested: past its slot, the cancelled task still has not run
    Thread.sleep(Math.max(0, Duration.between(Instant.now(), slot).toMillis()) + 300);
    assertThat(probe.events(key + "-2")).isEmpty();
    assertThat(scheduler.holds(second.taskId())).isFalse();
    assertThat(store.find(second.taskId()).orElseThrow().status()).isEqualTo(TaskStatus.CANCELLED);
    assertThat(dispatcher.cancel(second.taskId())).isFalse();
  }

  @Test
  void tasksThatCameDueWhileTheWorkerWasBusyStartOneIntervalApartNotAllAtOnce() throws Exception {
    String key = key();
    TaskReceipt first = dispatcher.dispatch(new Crowded(key, key + "-1"));
    await(first.taskId(), TaskStatus.COMPLETED);
    List<TaskReceipt> parkedOnes = new ArrayList<>();
    for (int i = 2; i <= 4; i++) {
      parkedOnes.add(dispatcher.dispatch(new Crowded(key, key + "-" + i)));
    }
    for (TaskReceipt receipt : parkedOnes) {
      awaitParked(receipt.taskId());
    }
    long spacedBefore = spacing.spacedStarts();
    // the queue's one worker is busy past all three slots (200, 400 and 600 ms after the first)
    TaskReceipt busy = dispatcher.dispatch(new Busy(key + "-busy", 900));

    for (TaskReceipt receipt : parkedOnes) {
      await(receipt.taskId(), TaskStatus.COMPLETED);
    }
    await(busy.taskId(), TaskStatus.COMPLETED);
    long busyStarted = GatedTasks.STARTS.get(key + "-busy");
    long[] starts = new long[4];
    for (int i = 1; i <= 4; i++) {
      starts[i - 1] = GatedTasks.STARTS.get(key + "-" + i);
    }
    // all three came due while the worker was busy; burst 1 allows no two closer than 200 ms, so
    // they do not all start the moment it is free: the second and third wait for their spacing
    assertThat(starts[1]).isGreaterThan(busyStarted + Duration.ofMillis(850).toNanos());
    for (int i = 1; i < 4; i++) {
      assertThat(Duration.ofNanos(starts[i] - starts[i - 1]))
          .as("gap before task %d", i + 1)
          .isGreaterThanOrEqualTo(Duration.ofMillis(199));
    }
    assertThat(spacing.spacedStarts() - spacedBefore).isGreaterThanOrEqualTo(2);
    for (TaskReceipt receipt : parkedOnes) {
      assertThat(statusChanges(receipt.taskId()))
          .containsExactly(TaskStatus.QUEUED, TaskStatus.IN_PROGRESS, TaskStatus.COMPLETED);
    }
  }

  @Test
  void theReceiptEstimatesTheStartFromTheKeysNextSlotWithoutSpendingBudget() throws Exception {
    String key = key();
    TaskReceipt first = dispatcher.dispatch(new Slotted(key, key + "-1"));
    assertThat(first.estimatedStart()).isEqualTo(first.scheduledAt());
    await(first.taskId(), TaskStatus.COMPLETED);

    TaskReceipt second = dispatcher.dispatch(new Slotted(key, key + "-2"));

    // one interval after the first task's counted start: its decision plus the gate's start lead
    // (at most 50 ms)
    assertThat(second.estimatedStart())
        .isAfter(second.scheduledAt().plusMillis(500))
        .isBeforeOrEqualTo(second.scheduledAt().plusSeconds(1).plusMillis(50));
    awaitParked(second.taskId());
    // the peek spent nothing: the task's own reservation is the slot the receipt announced
    assertThat(parkingLot.parkedTask(second.taskId()).orElse(null).slot())
        .isEqualTo(second.estimatedStart());
    await(second.taskId(), TaskStatus.COMPLETED);
  }

  @Test
  void aParkedTaskReDispatchedWithItsTaskKeyRunsOnceWithTheLatestPayloadAtItsSlot()
      throws Exception {
    String key = key();
    TaskReceipt first = dispatcher.dispatch(new Slotted(key, key + "-1"));
    await(first.taskId(), TaskStatus.COMPLETED);
    DispatchOptions keyed = DispatchOptions.now().withTaskKey("report-" + key);
    TaskReceipt parked = dispatcher.dispatch(new Slotted(key, key + "-old"), keyed);
    awaitParked(parked.taskId());
    Instant slot = parkingLot.parkedTask(parked.taskId()).orElse(null).slot();

    TaskReceipt replaced = dispatcher.dispatch(new Slotted(key, key + "-new"), keyed);

    assertThat(replaced.replaced()).isTrue();
    assertThat(replaced.taskId()).isEqualTo(parked.taskId());
    assertThat(replaced.estimatedStart()).isEqualTo(slot);
    await(parked.taskId(), TaskStatus.COMPLETED);
    awaitEvent(key + "-new");
    assertThat(probe.events(key + "-new")).containsExactly("handle");
    assertThat(probe.events(key + "-old")).isEmpty();
    assertThat(Instant.now()).isAfterOrEqualTo(slot);
  }

  @Test
  void deferralsAndRejectionsAreReportedAsEvents() throws Exception {
    String key = key();
    for (int i = 0; i < 7; i++) {
      dispatcher.dispatch(new Paced(key, key + "-" + i));
    }
    String rejectedKey = key();
    TaskReceipt one = dispatcher.dispatch(new Discarded(rejectedKey, rejectedKey + "-1"));
    TaskReceipt two = dispatcher.dispatch(new Discarded(rejectedKey, rejectedKey + "-2"));
    // two workers may take them: whichever reaches the gate second is the one rejected
    List<TaskStatus> ends =
        List.of(awaitEnd(one.taskId()).status(), awaitEnd(two.taskId()).status());
    assertThat(ends).containsExactlyInAnyOrder(TaskStatus.COMPLETED, TaskStatus.FAILED);
    UUID discarded = ends.get(0) == TaskStatus.FAILED ? one.taskId() : two.taskId();

    Await.until(
        () -> !events.deferred(key).isEmpty(),
        TIMEOUT,
        () -> "no deferral of " + key + " reported");
    // the first deferral of the key is reported at once; the second waits for the window summary
    assertThat(events.deferred(key)).hasSize(1);
    RateLimitDeferred first = events.deferred(key).get(0);
    assertThat(first.summary()).isFalse();
    assertThat(first.deferredCount()).isEqualTo(1);
    assertThat(first.message())
        .matches(
            "Rate limit deferred task [0-9a-f-]{36}: key="
                + key
                + " slotUtc=\\S+Z policy="
                + Paced.class.getName().replace("$", "\\$")
                + " deferredCount=1");
    assertThat(events.rejected(rejectedKey))
        .singleElement()
        .satisfies(e -> assertThat(e.taskId()).isEqualTo(discarded));
    // the task list finds it by the reason it was rejected for, and not by the other
    assertThat(
            admin
                .listThrottled(
                    TaskAdmin.Throttled.parse("rejected-discarded"),
                    Optional.of(Discarded.class.getName()),
                    Optional.empty(),
                    Optional.of(rejectedKey),
                    0,
                    10)
                .items())
        .extracting(TaskView::id)
        .containsExactly(discarded);
    assertThat(
            admin
                .listThrottled(
                    Optional.of(TaskAdmin.Throttled.REJECTED_BEYOND_HORIZON),
                    Optional.of(Discarded.class.getName()),
                    Optional.empty(),
                    Optional.of(rejectedKey),
                    0,
                    10)
                .items())
        .isEmpty();
  }

  @Test
  void aRejectedOccurrenceIsSkippedAheadToTheKeysNextSlotWithoutSpendingMaxRuns() throws Exception {
    String key = key();
    TaskReceipt series =
        dispatcher.schedule(
            new Skipping(key, key),
            Recurrence.every(Duration.ofMillis(200)).withMaxRuns(3),
            DispatchOptions.now());

    StoredTask task =
        Await.until(
            () -> store.find(series.taskId()).orElseThrow(),
            t -> t.lastError() != null,
            TIMEOUT,
            t -> "the skipped occurrence left no error: " + t);

    // the first occurrence ran; the second's slot (an hour away) is beyond the zero horizon: it is
    // skipped, the series stays alive with its run budget, its next occurrence at the key's slot
    assertThat(probe.events(key)).containsExactly("handle");
    assertThat(task.status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(task.runs()).isEqualTo(1);
    assertThat(task.lastError()).contains("RateLimitRejectedException").contains("BEYOND_HORIZON");
    assertThat(task.scheduledAt()).isAfter(Instant.now().plus(Duration.ofMinutes(59)));
    assertThat(events.rejected(key)).isNotEmpty();
    assertThat(dispatcher.cancel(series.taskId())).isTrue();
  }

  /**
   * A series every 4 s on a key with a slot every 2.5 s: a one-shot task of the key takes the slot
   * before the second occurrence, which parks about a second past its time; the third is due on the
   * series' own grid (8 s after the first), not 4 s after the late one, and runs then.
   */
  @Test
  void aParkedOccurrenceKeepsItsSeriesRhythm() throws Exception {
    String key = key();
    Instant t0 = Instant.now().plusMillis(1_500).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    TaskReceipt series =
        dispatcher.schedule(
            new Rhythmic(key, key),
            Recurrence.every(Duration.ofSeconds(4)).withStartAt(t0).withMaxRuns(3),
            DispatchOptions.now());
    Await.until(
        () -> GatedTasks.RUNS.getOrDefault(key, List.of()).size() == 1,
        TIMEOUT,
        () -> "the first occurrence did not run");
    TaskReceipt interloper = dispatcher.dispatch(new Rhythmic(key, key + "-one-shot"));
    await(interloper.taskId(), TaskStatus.COMPLETED); // at the slot 2.5 s after the first

    StoredTask done = await(series.taskId(), TaskStatus.COMPLETED);

    List<Instant[]> runs = GatedTasks.RUNS.get(key);
    assertThat(done.runs()).isEqualTo(3);
    assertThat(runs)
        .extracting(r -> r[0])
        .containsExactly(t0, t0.plusSeconds(4), t0.plusSeconds(8));
    assertThat(runs.get(1)[1])
        .as("the second occurrence was parked, behind the one-shot task")
        .isAfter(t0.plusSeconds(4));
    assertThat(runs.get(2)[2])
        .as("the third runs on the grid, not 4 s after the late second")
        .isBetween(t0.plusSeconds(8), runs.get(1)[2].plusSeconds(4).minusMillis(200));
  }

  /** A series that comes round faster than its rate refills: one warning for the task type. */
  @Test
  void aSeriesFasterThanItsRateIsWarnedAboutOnce() throws Exception {
    java.util.logging.Logger log =
        java.util.logging.Logger.getLogger(
            io.taskgate.engine.dispatch.DispatchLimits.class.getName());
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Handler capture =
        new java.util.logging.Handler() {
          @Override
          public void publish(java.util.logging.LogRecord record) {
            if (record.getLevel() == java.util.logging.Level.WARNING) {
              warnings.add(record.getMessage());
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    log.addHandler(capture);
    try {
      List<TaskReceipt> both = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        String key = key();
        both.add(
            dispatcher.schedule(
                new Rhythmic(key, key),
                Recurrence.every(Duration.ofSeconds(1))
                    .withStartAt(Instant.now().plusSeconds(3600)),
                DispatchOptions.now()));
      }
      assertThat(warnings.stream().filter(w -> w.contains(Rhythmic.class.getName())))
          .containsExactly(
              "Recurring task type "
                  + Rhythmic.class.getName()
                  + " comes round every PT1S but its rate limit refills one execution per"
                  + " PT2.5S per key: occurrences of a key will wait behind the limiter or be"
                  + " skipped");
      for (TaskReceipt series : both) {
        assertThat(dispatcher.cancel(series.taskId())).isTrue();
      }
    } finally {
      log.removeHandler(capture);
    }
  }

  @Test
  void anOccurrenceWhoseSlotFallsPastRunUntilIsSkippedNotFiredLate() throws Exception {
    String key = key();
    Instant runUntil = Instant.now().plusSeconds(3);
    TaskReceipt series =
        dispatcher.schedule(
            new Bounded(key, key),
            Recurrence.every(Duration.ofMillis(300)).withRunUntil(runUntil),
            DispatchOptions.now());

    StoredTask done = await(series.taskId(), TaskStatus.COMPLETED);

    // the first occurrence ran; the second's slot is 10 s after it, past runUntil: the series ends
    assertThat(Instant.now()).isBefore(runUntil.plusSeconds(1));
    assertThat(probe.events(key)).containsExactly("handle");
    assertThat(done.runs()).isEqualTo(1);
    assertThat(done.lastError()).contains("past the series' runUntil");
    assertThat(parkingLot.parkedTask(series.taskId())).isEmpty();
  }

  @Test
  void aFullParkingLotHoldsRateLimitedTasksOnTheirQueueWhileOthersFlowAndProducersFeelIt()
      throws Exception {
    String key = key();
    List<UUID> ids = new ArrayList<>();
    try {
      TaskReceipt first = dispatcher.dispatch(new Hot(key, key + "-0"));
      await(first.taskId(), TaskStatus.COMPLETED);
      int room = TestConfigSource.MAX_PARKED - parkingLot.parkedCount();
      for (int i = 1; i <= room; i++) {
        ids.add(dispatcher.dispatch(new Hot(key, key + "-" + i)).taskId());
      }
      awaitCondition(() -> parkingLot.parkedCount() >= TestConfigSource.MAX_PARKED, "lot full");

      // the lot is full: the next rate-limited tasks wait on their queue instead of parking
      for (int i = 0; i < 5; i++) {
        ids.add(dispatcher.dispatch(new Hot(key, key + "-held-" + i)).taskId());
      }
      awaitCondition(() -> queues.held() >= 5, "five tasks held");
      assertThat(parkingLot.parkedCount()).isLessThanOrEqualTo(TestConfigSource.MAX_PARKED + 1);
      for (UUID id : ids.subList(ids.size() - 5, ids.size())) {
        assertThat(parkingLot.parkedTask(id)).isEmpty();
        assertThat(store.find(id).orElseThrow().status()).isEqualTo(TaskStatus.QUEUED);
      }
      // the task views say so: held, not parked; a parked one has its slot
      UUID heldId = ids.get(ids.size() - 1);
      awaitCondition(() -> queues.isHeld(heldId), "the last one held");
      TaskView held = admin.find(heldId).orElseThrow();
      assertThat(held.held()).isTrue();
      assertThat(held.throttledUntil()).isNull();
      TaskView parkedView = admin.find(ids.get(0)).orElseThrow();
      assertThat(parkedView.held()).isFalse();
      assertThat(parkedView.throttledUntil())
          .isEqualTo(parkingLot.parkedTask(ids.get(0)).orElseThrow().slot());
      assertThat(
              admin
                  .list(
                      Optional.of(TaskStatus.QUEUED), Optional.of("Hot"), Optional.empty(), 0, 500)
                  .items())
          .filteredOn(t -> t.id().equals(heldId))
          .singleElement()
          .extracting(TaskView::held)
          .isEqualTo(true);

      // a task without a policy still runs on the same one-worker queue
      TaskReceipt free = dispatcher.dispatch(new Free(key + "-free"));
      long start = System.nanoTime();
      await(free.taskId(), TaskStatus.COMPLETED);
      assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(3).toNanos());

      // held tasks keep their place in the queue (capacity 30): producers are pushed back
      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 40; i++) {
                  ids.add(dispatcher.dispatch(new Hot(key, key + "-more-" + i)).taskId());
                }
              })
          .isInstanceOf(QueueFullException.class);
    } finally {
      for (StoredTask task :
          queries
              .query(
                  new TaskQuery(
                      Optional.of(TaskStatus.QUEUED),
                      Optional.of(Hot.class.getName()),
                      Optional.empty(),
                      0,
                      TaskQuery.MAX_SIZE))
              .tasks()) {
        dispatcher.cancel(task.id());
      }
    }
    awaitCondition(() -> queues.held() == 0, "held tasks dropped on cancel");
  }

  private void awaitCondition(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    Await.until(condition, TIMEOUT, () -> what);
  }

  @Test
  void theGateFollowsTheTaskTypeOnAnyQueueAndOnTheDefaultQueueFallback() throws Exception {
    String key = key();
    TaskReceipt first =
        dispatcher.dispatch(new Slotted(key, key + "-1"), DispatchOptions.now().onQueue("tiny"));
    await(first.taskId(), TaskStatus.COMPLETED);

    TaskReceipt fallback =
        dispatcher.dispatch(
            new Slotted(key, key + "-2"), DispatchOptions.now().onQueue("no-such-queue"));

    // the unknown queue falls back to "default"; the budget is the task type's, spent on "tiny"
    awaitParked(fallback.taskId());
    assertThat(store.find(fallback.taskId()).orElseThrow().queue()).isEqualTo("default");
    await(fallback.taskId(), TaskStatus.COMPLETED);
  }

  @Test
  void aRedeliveryWhileTheTaskRunsIsReParkedNeverRunTwiceAtOnce() throws Exception {
    String key = key();
    TaskReceipt receipt = dispatcher.dispatch(new Lingering(key, key, 600));
    awaitEvent(key); // the handler has started and runs for 600 ms

    runner.run(receipt.taskId()); // the same task delivered again, as a recovery race would

    // not dropped: re-parked on a short timer while the first delivery still runs
    assertThat(scheduler.hasTimer(receipt.taskId())).isTrue();
    assertThat(store.find(receipt.taskId()).orElseThrow().status())
        .isEqualTo(TaskStatus.IN_PROGRESS);
    await(receipt.taskId(), TaskStatus.COMPLETED);
    // the re-parked delivery comes back (every 100 ms to 5 s) and finds the task done
    Await.until(
        () -> !scheduler.hasTimer(receipt.taskId()),
        Duration.ofSeconds(5),
        () -> "the re-parked delivery of " + receipt.taskId() + " is still on the timeline");
    // real time passing is what is tested: the re-parked delivery runs nothing more
    Thread.sleep(300);
    assertThat(probe.events(key)).containsExactly("handle");
    StoredTask done = store.find(receipt.taskId()).orElseThrow();
    assertThat(done.attempt()).isEqualTo(1);
    assertThat(statusChanges(receipt.taskId()))
        .containsExactly(TaskStatus.QUEUED, TaskStatus.IN_PROGRESS, TaskStatus.COMPLETED);
  }

  @Test
  @RunAsClient
  void restDispatchOfAThrottledTaskAnswersRetryAfter() throws Exception {
    String key = key();
    String body = "{\"key\":\"" + key + "\",\"id\":\"" + key + "\"}";
    URI uri = baseUrl.toURI().resolve("api/tasks/" + Hot.class.getName());

    HttpResponse<String> first = Http.send("POST", uri, body, "admin", "taskgate");
    HttpResponse<String> second = Http.send("POST", uri, body, "admin", "taskgate");

    assertThat(first.statusCode()).isEqualTo(202);
    assertThat(first.headers().firstValue("Retry-After")).isEmpty();
    assertThat(second.statusCode()).isEqualTo(202);
    // 1 per 10 s: the second task's slot is about 10 s away
    assertThat(second.headers().firstValue("Retry-After").map(Integer::parseInt))
        .hasValueSatisfying(seconds -> assertThat(seconds).isBetween(8, 10));
    JsonObject accepted = Http.json(second);
    assertThat(Instant.parse(accepted.getString("estimatedStart")))
        .isAfter(Instant.parse(accepted.getString("scheduledAt")).plusSeconds(7));
    HttpResponse<String> cancelled =
        Http.send(
            "DELETE",
            baseUrl.toURI().resolve("api/tasks/" + accepted.getString("id")),
            null,
            "admin",
            "taskgate");
    assertThat(cancelled.statusCode()).isBetween(200, 204);
  }

  /**
   * A handler's own {@code rateLimitKey(T)}, called on the handler instance the container made (its
   * key comes from an injected bean): a second task of a key parks; a null, empty or throwing key
   * leaves the task unthrottled (it runs, never parked); a 300-character key throttles under its
   * SHA-256.
   */
  @Test
  void aHandlersOwnKeyThrottlesAndANullEmptyOrThrowingOneRunsUnthrottled() throws Exception {
    String route = "r-" + UUID.randomUUID();
    TaskReceipt first = dispatcher.dispatch(new Routed(route, route + "-1"));
    await(first.taskId(), TaskStatus.COMPLETED);
    TaskReceipt second = dispatcher.dispatch(new Routed(route, route + "-2"));
    awaitParked(second.taskId());
    assertThat(parkingLot.parkedTask(second.taskId()).orElseThrow().key())
        .as("the key the injected bean made")
        .isEqualTo("tenant:" + route);
    assertThat(store.find(second.taskId()).orElseThrow().rateKey()).isEqualTo("tenant:" + route);

    for (String mode : List.of("null", "empty", "throw")) {
      String id = mode + "-" + UUID.randomUUID();
      List<TaskReceipt> both =
          List.of(
              dispatcher.dispatch(new Routed(mode, id + "-1")),
              dispatcher.dispatch(new Routed(mode, id + "-2")));
      for (TaskReceipt receipt : both) {
        await(receipt.taskId(), TaskStatus.COMPLETED);
        assertThat(queries.history(receipt.taskId()))
            .as(mode + ": never parked")
            .noneMatch(a -> a.from() == TaskStatus.QUEUED && a.to() == TaskStatus.QUEUED);
      }
      assertThat(probe.events(id + "-1")).as(mode).containsExactly("ran");
      assertThat(probe.events(id + "-2")).as(mode + ": not held back").containsExactly("ran");
    }

    String longId = "long-" + UUID.randomUUID();
    TaskReceipt longFirst = dispatcher.dispatch(new Routed("long", longId + "-1"));
    TaskReceipt longSecond = dispatcher.dispatch(new Routed("long", longId + "-2"));
    TaskReceipt parked =
        Await.until(
            () ->
                parkingLot.parkedTask(longFirst.taskId()).isPresent()
                    ? longFirst
                    : parkingLot.parkedTask(longSecond.taskId()).isPresent() ? longSecond : null,
            java.util.Objects::nonNull,
            TIMEOUT,
            r -> "neither 300-character task parked");
    assertThat(parkingLot.parkedTask(parked.taskId()).orElseThrow().key())
        .startsWith("sha256:")
        .hasSize("sha256:".length() + 64);
    assertThat(dispatcher.cancel(second.taskId())).isTrue();
    assertThat(dispatcher.cancel(parked.taskId())).isTrue();
  }

  private static String key() {
    return "tenant-" + UUID.randomUUID();
  }

  private static long millis(long millis) {
    return Duration.ofMillis(millis).toNanos();
  }

  private void awaitEvent(String id) throws InterruptedException {
    Await.until(() -> !probe.events(id).isEmpty(), TIMEOUT, () -> id + " recorded nothing");
  }

  /** A second task of a fresh 1-a-second key, once the first has run: parked about a second. */
  private TaskReceipt parkedBehindAFirst(String key) throws InterruptedException {
    TaskReceipt first = dispatcher.dispatch(new Slotted(key, key + "-1"));
    await(first.taskId(), TaskStatus.COMPLETED);
    TaskReceipt second = dispatcher.dispatch(new Slotted(key, key + "-2"));
    awaitParked(second.taskId());
    return second;
  }

  private void awaitParked(UUID taskId) throws InterruptedException {
    Await.until(
        () -> parkingLot.parkedTask(taskId).isPresent() && scheduler.hasTimer(taskId),
        TIMEOUT,
        () -> "task " + taskId + " was not parked");
  }

  private StoredTask awaitEnd(UUID taskId) throws InterruptedException {
    return Await.until(
        () -> store.find(taskId).orElseThrow(),
        task -> task.status() == TaskStatus.COMPLETED || task.status() == TaskStatus.FAILED,
        TIMEOUT,
        task -> "task " + taskId + " is " + task.status());
  }

  private StoredTask await(UUID taskId, TaskStatus status) throws InterruptedException {
    return Await.until(
        () -> store.find(taskId).orElseThrow(),
        task -> task.status() == status,
        TIMEOUT,
        task -> "task " + taskId + " is " + task.status() + ", not " + status);
  }

  /**
   * The statuses a task went through, as its audit records them, without the notes that record no
   * change (a parking, written a moment later in a batch).
   */
  private List<TaskStatus> statusChanges(UUID taskId) {
    return queries.history(taskId).stream()
        .filter(a -> a.from() != a.to())
        .map(TaskAudit::to)
        .toList();
  }
}
