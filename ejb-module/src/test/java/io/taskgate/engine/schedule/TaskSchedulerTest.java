package io.taskgate.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.QueueFullException;
import io.taskgate.core.task.RetryPolicy;
import io.taskgate.engine.EngineParts;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The timeline: one alarm at the earliest due task, never early, re-set for an earlier one. */
class TaskSchedulerTest {
  private final ExecutorService workers = Executors.newCachedThreadPool();
  private final ScheduledExecutorService alarms = Executors.newScheduledThreadPool(1);
  private final AtomicInteger schedules = new AtomicInteger();
  private final Map<UUID, Long> ranAt = new ConcurrentHashMap<>();
  private final List<UUID> order = new ArrayList<>();
  private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

  @AfterEach
  void stop() {
    workers.shutdownNow();
    alarms.shutdownNow();
  }

  @Test
  void aBacklogOfParkedTasksSetsOneAlarmAndEachRunsInOrderNeverBeforeItsTime() throws Exception {
    TaskScheduler scheduler = scheduler();
    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      ids.add(UUID.randomUUID());
    }
    long before = System.nanoTime();
    int accepted = 0;
    for (int i = 0; i < ids.size(); i++) {
      if (scheduler.redeemAt("default", ids.get(i), t0.plus(300 + i, ChronoUnit.MILLIS))) {
        accepted++;
      }
    }
    assertThat(accepted).isEqualTo(300);
    assertThat(schedules.get()).isEqualTo(1); // the alarm for the first; the rest come after it
    assertThat(scheduler.timersPending()).isEqualTo(300);

    awaitRuns(300);
    synchronized (order) {
      assertThat(order).containsExactlyElementsOf(ids);
    }
    for (int i = 0; i < ids.size(); i++) {
      long earliest = before + TimeUnit.MILLISECONDS.toNanos(300 + i);
      assertThat(ranAt.get(ids.get(i)))
          .as("task %d never before its time", i)
          .isGreaterThan(earliest);
    }
    // the alarm, then a tick while slots are 1 ms apart: not one schedule per task
    assertThat(schedules.get()).isEqualTo(2);
    assertThat(scheduler.timersPending()).isZero();
    assertThat(scheduler.redeemAt("default", ids.get(0), t0.plusSeconds(1)))
        .as("still held by the scheduler until released")
        .isFalse();
  }

  @Test
  void anEarlierArrivalSetsTheAlarmEarlierAndACancelledTimerNeverRings() throws Exception {
    TaskScheduler scheduler = scheduler();
    UUID late = UUID.randomUUID();
    UUID early = UUID.randomUUID();
    scheduler.submit("default", late, t0.plusSeconds(3));
    scheduler.submit("default", early, t0.plusMillis(20));
    assertThat(schedules.get()).isEqualTo(2);

    awaitRuns(1);
    assertThat(ranAt).containsOnlyKeys(early);
    assertThat(scheduler.hasTimer(late)).isTrue();
    assertThat(scheduler.cancelTimer(late)).isTrue();
    assertThat(scheduler.holds(late)).isFalse();
    assertThat(scheduler.timersPending()).isZero();
    assertThat(scheduler.cancelTimer(late)).isFalse();
  }

  @Test
  void aSlotIsHandedOverBeforeTheRestOfAFloodOfOtherTasksThatCameDueFirst() throws Exception {
    TaskScheduler scheduler = scheduler();
    long base = System.nanoTime();
    scheduler.clock = () -> t0.plusNanos(System.nanoTime() - base); // due times the same however
    int flood = 10 * TaskScheduler.MAX_HANDOVER; //                    long the submits take
    for (int i = 0; i < flood; i++) {
      scheduler.submit("default", UUID.randomUUID(), t0.plusMillis(200));
    }
    UUID slot = UUID.randomUUID();
    scheduler.redeemAt("default", slot, t0.plusMillis(201));
    UUID start = UUID.randomUUID(); // claimed ahead: its start lane
    scheduler.startAt("default", start, t0.plusMillis(201));
    assertThat(System.nanoTime() - base)
        .as("submitted before the first is due")
        .isLessThan(200_000_000L);

    awaitRuns(flood + 2);
    synchronized (order) {
      // the flood goes over MAX_HANDOVER an alarm or tick (1 ms apart), and each hands the slots
      // that came over first: the slot, 1 ms after the flood, is behind at most five of them
      assertThat(order.indexOf(slot)).isLessThanOrEqualTo(5 * TaskScheduler.MAX_HANDOVER);
      assertThat(order.indexOf(start)).isLessThanOrEqualTo(5 * TaskScheduler.MAX_HANDOVER);
    }
    assertThat(scheduler.timersPending()).isZero();
  }

  @Test
  void aTaskDueNowGoesStraightToItsQueue() throws Exception {
    TaskScheduler scheduler = scheduler();
    UUID now = UUID.randomUUID();
    scheduler.submit("default", now, t0.minusSeconds(1));
    awaitRuns(1);
    assertThat(ranAt).containsOnlyKeys(now);
    assertThat(schedules.get()).isZero();
  }

  @Test
  void theFarthestDueTimesATaskCanGetWaitOnATimer() {
    TaskScheduler scheduler = scheduler();
    UUID farthestDispatch = UUID.randomUUID();
    UUID farthestRetry = UUID.randomUUID(); // RetryPolicy's longest delay, doubled by jitter

    scheduler.submit("default", farthestDispatch, t0.plus(DispatchOptions.MAX_DELAY));
    scheduler.submit("default", farthestRetry, t0.plus(RetryPolicy.MAX_DELAY.multipliedBy(2)));

    assertThat(scheduler.hasTimer(farthestDispatch)).isTrue();
    assertThat(scheduler.hasTimer(farthestRetry)).isTrue();
    assertThat(scheduler.cancelTimer(farthestDispatch)).isTrue();
    assertThat(scheduler.cancelTimer(farthestRetry)).isTrue();
    assertThat(ranAt).isEmpty();
  }

  /**
   * The dispatcher holds a task from before its insert until it hands it over: the sweep, reading
   * the store meanwhile, finds it held and leaves it, so that it is handed over once, by the
   * dispatcher (taken by the sweep first, it could run to its end before the dispatcher handed it
   * over again, with its first copy).
   */
  @Test
  void aTaskTheDispatcherHoldsIsLeftToItAndHandedOverOnce() throws Exception {
    TaskScheduler scheduler = scheduler();
    UUID id = UUID.randomUUID();
    assertThat(scheduler.hold(id)).isTrue(); // before its insert
    assertThat(scheduler.offer("default", id, t0)).isEqualTo(TaskScheduler.Offer.HELD); // sweep
    scheduler.submitHeld("default", id, t0);
    awaitRuns(1);
    assertThat(scheduler.holds(id)).as("held until the runner is done with it").isTrue();
    assertThat(scheduler.offer("default", id, t0))
        .as("a sweep meanwhile")
        .isEqualTo(TaskScheduler.Offer.HELD);
    synchronized (order) {
      assertThat(order).containsExactly(id);
    }
  }

  /** A held task whose queue stays full is let go: the sweep brings it when there is room. */
  @Test
  void aHeldTaskThatFindsItsQueueFullIsLetGoForTheSweep() throws Exception {
    TaskScheduler scheduler = scheduler();
    java.util.concurrent.CountDownLatch taken = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
    scheduler.queues =
        EngineParts.queues(
            Map.of(
                "taskgate.queue.default.parallelism", "1", // one worker, kept busy
                "taskgate.queue.default.capacity", "1",
                "taskgate.dispatch.max-wait", "PT0S"),
            workers,
            batch -> {
              taken.countDown();
              try {
                done.await(); // busy until the test ends: nothing more leaves the queue
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    UUID running = UUID.randomUUID();
    UUID waiting = UUID.randomUUID();
    UUID refused = UUID.randomUUID();
    for (UUID id : List.of(running, waiting, refused)) {
      scheduler.hold(id);
    }
    scheduler.submitHeld("default", running, t0);
    assertThat(taken.await(10, TimeUnit.SECONDS)).isTrue();
    scheduler.submitHeld("default", waiting, t0); // the queue's one place
    assertThatThrownBy(() -> scheduler.submitHeld("default", refused, t0))
        .isInstanceOf(QueueFullException.class);
    assertThat(scheduler.holds(refused)).isFalse();
    assertThat(scheduler.holds(waiting)).isTrue();
    assertThat(scheduler.takeLetGo()).isTrue();
    done.countDown();
  }

  private TaskScheduler scheduler() {
    TaskScheduler scheduler = new TaskScheduler();
    scheduler.monotonic = System::nanoTime;
    scheduler.clock = InstantSource.fixed(t0);
    scheduler.timers = EngineParts.timers(alarms, schedules);
    scheduler.queues =
        EngineParts.queues(
            Map.of(
                "taskgate.queue.default.parallelism", "1", // run in the order handed over
                "taskgate.queue.default.capacity", "10000"),
            workers,
            batch -> {
              long now = System.nanoTime();
              for (UUID id : batch) {
                ranAt.put(id, now);
                synchronized (order) {
                  order.add(id);
                }
              }
            });
    return scheduler;
  }

  private void awaitRuns(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (ranAt.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
    assertThat(ranAt).hasSize(count);
  }
}
