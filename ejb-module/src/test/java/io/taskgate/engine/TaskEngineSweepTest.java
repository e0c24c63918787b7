package io.taskgate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.cluster.ClusterWiring;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.schedule.SchedulerWiring;
import io.taskgate.store.DueTask;
import io.taskgate.store.TaskStore;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sweeper reads the store at once after a let-go, and less often while it finds nothing. */
class TaskEngineSweepTest {
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<DueTask> due = new ArrayList<>();
  private final Set<UUID> ran = ConcurrentHashMap.newKeySet();
  private int reads;

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  @Test
  void aStoreThatGivesNothingBackIsReadLessAndLessOftenDownToEveryTwelveTicks() {
    TaskEngine engine = engine();
    List<Integer> readingTicks = new ArrayList<>();
    for (int tick = 1; tick <= 60; tick++) {
      int before = reads;
      engine.sweep();
      if (reads > before) {
        readingTicks.add(tick);
      }
    }
    assertThat(readingTicks).containsExactly(1, 3, 6, 11, 20, 32, 44, 56);
    assertThat(engine.lastSweep()).isPresent();
  }

  @Test
  void noSweepReadsTheStoreBeforeRecoveryHasEnded() {
    TaskEngine engine = engine();
    engine.recoveryEnded = false;
    for (int tick = 0; tick < 5; tick++) {
      engine.sweep();
    }
    assertThat(reads).isZero();

    engine.recoveryEnded = true;
    engine.sweep();
    assertThat(reads).isEqualTo(1);
  }

  @Test
  void aLetGoTaskIsLookedForAtTheNextTickAndAReadThatFindsOneIsFollowedByAnother()
      throws Exception {
    TaskEngine engine = engine();
    for (int tick = 0; tick < 20; tick++) {
      engine.sweep(); // backed off
    }
    int before = reads;
    engine.sweep();
    assertThat(reads).as("quiet: no read").isEqualTo(before);

    UUID lost = UUID.randomUUID();
    synchronized (due) {
      due.add(new DueTask(lost, "default", Instant.EPOCH, false, "node-a"));
    }
    engine.scheduler.letGo(lost);
    engine.sweep();
    assertThat(reads).as("read at the tick after the let-go").isEqualTo(before + 1);
    awaitRan(lost);

    synchronized (due) {
      due.clear();
    }
    engine.scheduler.release(lost);
    engine.sweep();
    assertThat(reads).as("it found one: the next tick reads again").isEqualTo(before + 2);
  }

  private TaskEngine engine() {
    TaskEngine engine = new TaskEngine();
    engine.clock = InstantSource.system();
    engine.store =
        (TaskStore)
            Proxy.newProxyInstance(
                TaskStore.class.getClassLoader(),
                new Class<?>[] {TaskStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("findDue")) {
                    reads++;
                    synchronized (due) {
                      return args[1] == null ? List.copyOf(due) : List.of();
                    }
                  }
                  throw new AssertionError("not expected here: " + method);
                });
    TaskQueues queues = EngineParts.queues(Map.of(), threads, ran::addAll);
    engine.scheduler =
        SchedulerWiring.scheduler(queues, null, InstantSource.system(), System::nanoTime);
    engine.queues = queues;
    engine.instances = ClusterWiring.instances("node-a", null, engine.clock);
    engine.recoveryEnded = true;
    return engine;
  }

  private void awaitRan(UUID id) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!ran.contains(id) && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
    assertThat(ran).contains(id);
  }
}
