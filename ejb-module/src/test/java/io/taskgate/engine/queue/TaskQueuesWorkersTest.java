package io.taskgate.engine.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.EngineParts;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Workers linger for more work before they end, and no task waits for a worker that left. */
class TaskQueuesWorkersTest {
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final AtomicInteger submissions = new AtomicInteger();
  private final Map<UUID, Integer> runs = new ConcurrentHashMap<>();

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  @Test
  void aTrickleOfTasksKeepsItsWorkerThenAnIdleQueueHoldsNone() throws Exception {
    TaskQueues queues = queues("1");
    for (int i = 0; i < 20; i++) {
      queues.enqueueDue("default", UUID.randomUUID());
      awaitRuns(i + 1);
      // real time passing is what is tested: a paced key, a slot every few ms, keeps its worker
      Thread.sleep(5);
    }
    assertThat(submissions.get()).as("one worker, kept while tasks trickle in").isEqualTo(1);

    awaitNoWorkers(queues);
    queues.enqueue("default", UUID.randomUUID());
    awaitRuns(21);
    assertThat(submissions.get()).as("a new worker after the last one ended").isEqualTo(2);
  }

  @Test
  void closingEndsLingeringWorkers() throws Exception {
    TaskQueues queues = queues("2");
    queues.enqueue("default", UUID.randomUUID());
    awaitRuns(1);
    queues.close();
    awaitNoWorkers(queues);
  }

  @Test
  void concurrentProducersLoseNoTaskToAWorkerThatIsLeaving() throws Exception {
    TaskQueues queues = queues("2");
    int producers = 4;
    int each = 3_000;
    List<Thread> threads = new ArrayList<>();
    Set<UUID> sent = ConcurrentHashMap.newKeySet();
    for (int p = 0; p < producers; p++) {
      boolean dueLane = p % 2 == 0;
      Thread producer =
          new Thread(
              () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < each; i++) {
                  UUID id = UUID.randomUUID();
                  sent.add(id);
                  if (dueLane) {
                    queues.enqueueDue("default", id);
                  } else {
                    queues.enqueue("default", id);
                  }
                  if (random.nextInt(500) == 0) {
                    try {
                      // real time passing is what is tested: idle workers leave after lingering
                      Thread.sleep(TaskQueues.LINGER_MILLIS + 20);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                }
              });
      threads.add(producer);
      producer.start();
    }
    for (Thread producer : threads) {
      producer.join();
    }
    awaitRuns(producers * each);
    assertThat(runs.keySet()).isEqualTo(sent);
    assertThat(runs.values()).allMatch(n -> n == 1);
    assertThat(queues.workers().get("default")).isBetween(0, 2);
  }

  private TaskQueues queues(String parallelism) {
    TaskQueues queues =
        EngineParts.queues(
            Map.of(
                "taskgate.queue.default.parallelism",
                parallelism,
                "taskgate.queue.default.capacity",
                "100000"),
            threads,
            batch -> batch.forEach(id -> runs.merge(id, 1, Integer::sum)));
    queues.executor = EngineParts.managed(ManagedExecutorService.class, threads, submissions);
    return queues;
  }

  private void awaitRuns(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (runs.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertThat(runs).hasSize(count);
  }

  private static void awaitNoWorkers(TaskQueues queues) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (queues.workers().get("default") > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(queues.workers().get("default")).isZero();
  }
}
