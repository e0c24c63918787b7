package io.taskgate.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.QueueFullException;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.engine.cluster.ClusterWiring;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.time.ManualTimeline;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskWrite;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaInstanceStore;
import io.taskgate.store.jpa.JpaTaskQueries;
import io.taskgate.store.jpa.JpaTaskStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Recovery of a backlog far larger than the queue (H2 in memory, time moved by hand): once the
 * queue is full it stops reading due tasks, which wait for the refill, and still hands the tasks
 * not yet due to the scheduler's timers.
 */
class StoreSweepBacklogTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  static final int DUE = 5 * StoreSweep.BATCH;

  final ManualTimeline timeline = new ManualTimeline(T0);
  final List<UUID> queued = new ArrayList<>();
  final AtomicInteger pagesRead = new AtomicInteger();
  EntityManagerFactory factory;
  JpaTaskStore store;
  JpaInstanceStore instanceStore;
  TaskQueries queries;

  @BeforeEach
  void open() {
    factory = H2TestDatabase.inMemory("backlog");
    ResourceLocalTransactor tx = new ResourceLocalTransactor(factory);
    store = new JpaTaskStore(tx, AuditLevel.MINIMAL);
    instanceStore = new JpaInstanceStore(tx);
    JpaTaskQueries real = new JpaTaskQueries(tx);
    queries =
        (TaskQueries)
            Proxy.newProxyInstance(
                TaskQueries.class.getClassLoader(),
                new Class<?>[] {TaskQueries.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("findQueued")) {
                    pagesRead.incrementAndGet();
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
  }

  @AfterEach
  void close() {
    factory.close();
  }

  @Test
  void onceTheQueueIsFullRecoveryReadsNoMoreDueTasksAndStillArmsTheLaterOnes() {
    Recovered recovered = recover(10);

    assertThat(queued).hasSize(10);
    assertThat(recovered.laterHeld())
        .as("the task not yet due waits on a timer, after the due tasks that did not fit")
        .isTrue();
    assertThat(pagesRead.get())
        .as("pages read: the first of due tasks, then those not yet due, not all of them")
        .isEqualTo(2);
  }

  @Test
  void whileTheQueueHasRoomRecoveryReadsEveryPage() {
    Recovered recovered = recover(DUE);

    assertThat(queued).hasSize(DUE);
    assertThat(recovered.laterHeld()).isTrue();
    assertThat(pagesRead.get()).isEqualTo(DUE / StoreSweep.BATCH + 1);
  }

  record Recovered(boolean laterHeld) {}

  /** {@value #DUE} due tasks and one due in an hour, recovered with a queue of {@code capacity}. */
  Recovered recover(int capacity) {
    TaskQueues queues =
        new TaskQueues() {
          @Override
          public void enqueue(String queue, UUID taskId, Duration wait) {
            if (queued.size() == capacity) {
              throw new QueueFullException(queue, capacity, Duration.ZERO, taskId);
            }
            queued.add(taskId);
          }

          @Override
          public String resolve(String queue) {
            return queue;
          }

          @Override
          public Set<String> names() {
            return Set.of("default");
          }
        };
    TaskScheduler scheduler =
        SchedulerWiring.scheduler(queues, timeline.timers(), timeline.clock(), timeline.ticker());
    Instances instances = ClusterWiring.instances("a", instanceStore, timeline.clock());
    instances.beat(ParkedSummary.NONE, null);
    List<TaskWrite> writes = new ArrayList<>();
    for (int i = 0; i < DUE; i++) {
      writes.add(new TaskWrite.Insert(task(T0.minusSeconds(60))));
    }
    store.writeAll(writes);
    StoredTask later = task(T0.plus(Duration.ofHours(1)));
    store.insert(later);

    new StoreSweep(store, queries, queues, scheduler, instances).recover(T0);
    return new Recovered(scheduler.holds(later.id()));
  }

  static StoredTask task(Instant due) {
    return StoredTask.queued(UUID.randomUUID(), "Ping", "{}", "default", null, due, null, T0)
        .withOwner("a");
  }
}
