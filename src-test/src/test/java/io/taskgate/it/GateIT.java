package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskReceipt;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.task.TaskStatus;
import io.taskgate.engine.TaskRunner;
import io.taskgate.engine.TaskScheduler;
import io.taskgate.it.engine.GatedTasks;
import io.taskgate.it.engine.GatedTasks.Cold;
import io.taskgate.it.engine.GatedTasks.Discarded;
import io.taskgate.it.engine.GatedTasks.Distant;
import io.taskgate.it.engine.GatedTasks.FlakyPaced;
import io.taskgate.it.engine.GatedTasks.Free;
import io.taskgate.it.engine.GatedTasks.Hot;
import io.taskgate.it.engine.GatedTasks.Paced;
import io.taskgate.it.engine.GatedTasks.Spaced;
import io.taskgate.it.engine.Probe;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import io.taskgate.store.TaskStore;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
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

  @Inject TaskDispatcher dispatcher;
  @Inject TaskStore store;
  @Inject TaskRunner runner;
  @Inject TaskScheduler scheduler;
  @Inject KeyedRateLimiter limiter;
  @Inject Probe probe;

  @Deployment
  static WebArchive taskgateWar() {
    return EngineIT.taskgateWar();
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
    for (int i = 0; i < 5; i++) {
      dispatcher.dispatch(new Paced(key, key + "-burst-" + i));
    }
    TaskReceipt sixth = dispatcher.dispatch(new Paced(key, key + "-sixth"));

    awaitParked(sixth.taskId());
    TaskRunner.Parked parked = runner.parked().get(sixth.taskId());
    assertThat(parked.key()).isEqualTo(key);
    assertThat(parked.slot()).isAfter(Instant.now().minusMillis(1));
    StoredTask queued = store.find(sixth.taskId()).orElseThrow();
    assertThat(queued.status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(queued.version()).isZero(); // nothing written for the deferral
    assertThat(store.history(sixth.taskId()))
        .extracting(TaskAudit::to)
        .containsExactly(TaskStatus.QUEUED);

    await(sixth.taskId(), TaskStatus.COMPLETED);
    assertThat(runner.parked()).doesNotContainKey(sixth.taskId());
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
    assertThat(runner.parked()).containsKeys(second.taskId(), third.taskId());
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
    assertThat(runner.parked()).doesNotContainKey(parked.taskId());
    assertThat(scheduler.holds(parked.taskId())).isFalse();
    assertThat(limiter.stats().pendingReservations()).isEqualTo(pendingBefore - 1);
    assertThat(probe.events(key + "-2")).isEmpty();
  }

  private static String key() {
    return "tenant-" + UUID.randomUUID();
  }

  private static long millis(long millis) {
    return Duration.ofMillis(millis).toNanos();
  }

  private void awaitEvent(String id) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (probe.events(id).isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(id + " recorded nothing within " + TIMEOUT);
      }
      Thread.sleep(10);
    }
  }

  private void awaitParked(UUID taskId) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!runner.parked().containsKey(taskId) || !scheduler.hasTimer(taskId)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("task " + taskId + " was not parked within " + TIMEOUT);
      }
      Thread.sleep(10);
    }
  }

  private StoredTask await(UUID taskId, TaskStatus status) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    StoredTask task = store.find(taskId).orElseThrow();
    while (task.status() != status) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("task " + taskId + " is " + task.status() + ", not " + status);
      }
      Thread.sleep(20);
      task = store.find(taskId).orElseThrow();
    }
    return task;
  }
}
