package io.taskgate.engine.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.QueueFullException;
import io.taskgate.engine.EngineParts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The due lane: redemptions run ahead of a queue's backlog and are not bound by its capacity. */
class TaskQueuesDueLaneTest {
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<UUID> ran = new ArrayList<>();
  private final CountDownLatch firstStarted = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void stop() {
    release.countDown();
    threads.shutdownNow();
  }

  @Test
  void aDueTaskRunsBeforeTheBacklogEvenWhenTheQueueIsFull() throws Exception {
    TaskQueues queues =
        queues(
            Map.of(
                "taskgate.queue.default.parallelism",
                "1",
                "taskgate.queue.default.capacity",
                "3",
                "taskgate.dispatch.max-wait",
                "PT0.05S"));
    UUID first = UUID.randomUUID();
    UUID second = UUID.randomUUID();
    UUID third = UUID.randomUUID();
    UUID redeemed = UUID.randomUUID();
    queues.enqueue("default", first);
    assertThat(firstStarted.await(5, TimeUnit.SECONDS)).isTrue(); // the one worker is busy
    queues.enqueue("default", second);
    queues.enqueue("default", third);
    UUID overflow = UUID.randomUUID();
    queues.enqueue("default", overflow); // the running task's place is free again: 3 of 3
    assertThatThrownBy(() -> queues.enqueue("default", UUID.randomUUID()))
        .isInstanceOf(QueueFullException.class);

    queues.enqueueDue("default", redeemed); // full or not, it never waits
    release.countDown();

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (ranCount() < 5 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    synchronized (ran) {
      assertThat(ran).containsExactly(first, redeemed, second, third, overflow);
    }
  }

  @Test
  void aStartRunsBeforeTheDueLaneAndTheBacklog() throws Exception {
    TaskQueues queues = queues(Map.of("taskgate.queue.default.parallelism", "1"));
    UUID first = UUID.randomUUID();
    UUID queued = UUID.randomUUID();
    UUID redeemed = UUID.randomUUID();
    UUID start = UUID.randomUUID();
    queues.enqueue("default", first);
    assertThat(firstStarted.await(5, TimeUnit.SECONDS)).isTrue(); // the one worker is busy
    queues.enqueue("default", queued);
    queues.enqueueDue("default", redeemed);
    queues.enqueueStart("default", start);
    release.countDown();

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (ranCount() < 4 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    synchronized (ran) {
      assertThat(ran).containsExactly(first, start, redeemed, queued);
    }
  }

  @Test
  void aWorkerWaitingForTheStoreIsWokenForAStartAndTakesOnlyWhatItAccepts() throws Exception {
    UUID first = UUID.randomUUID();
    UUID refused = UUID.randomUUID();
    UUID start = UUID.randomUUID();
    List<UUID> takenWhileWaiting = new java.util.concurrent.CopyOnWriteArrayList<>();
    CountDownLatch waiting = new CountDownLatch(1);
    TaskQueues queues =
        EngineParts.queues(
            Map.of("taskgate.queue.default.parallelism", "1"),
            threads,
            (batch, starts) -> {
              synchronized (ran) {
                ran.addAll(batch);
              }
              if (!batch.contains(first)) {
                return;
              }
              // the one worker "waits for the store": only a start may wake it
              starts.waitingForStore(true);
              waiting.countDown();
              long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
              UUID taken = null;
              while (taken == null && System.nanoTime() < deadline) {
                taken = starts.pollStart(id -> !id.equals(refused));
                if (taken == null) {
                  java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(10));
                }
              }
              starts.waitingForStore(false);
              if (taken != null) {
                takenWhileWaiting.add(taken);
              }
            });
    queues.enqueue("default", first);
    assertThat(waiting.await(5, TimeUnit.SECONDS)).isTrue();
    queues.enqueueStart("default", refused); // not accepted: stays on the lane
    queues.enqueueStart("default", start);

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (ranCount() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(takenWhileWaiting).containsExactly(start);
    synchronized (ran) {
      assertThat(ran).containsExactly(first, refused); // the refused one in a batch of its own
    }
  }

  private int ranCount() {
    synchronized (ran) {
      return ran.size();
    }
  }

  private TaskQueues queues(Map<String, String> settings) {
    return EngineParts.queues(
        settings,
        threads,
        batch -> {
          for (UUID id : batch) {
            synchronized (ran) {
              ran.add(id);
            }
            if (firstStarted.getCount() > 0) {
              firstStarted.countDown();
              try {
                release.await(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          }
        });
  }
}
