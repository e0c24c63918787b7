package io.taskgate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.engine.cluster.ClusterWiring;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.schedule.SchedulerWiring;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskWrite;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaInstanceStore;
import io.taskgate.store.jpa.JpaTaskQueries;
import io.taskgate.store.jpa.JpaTaskStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Recovery on a real store (H2 in memory): it streams the stored tasks into the engine without
 * waiting for room in a queue, a backlog larger than the queue flows in as the workers take it, an
 * interrupted attempt is given back, and a task that cannot be scheduled fails alone.
 */
class TaskEngineRecoveryTest {
  private static final String TYPE = "com.example.Backlog";

  private final ScheduledExecutorService threads = Executors.newScheduledThreadPool(4);
  private final Map<UUID, AtomicInteger> runs = new ConcurrentHashMap<>();
  private EntityManagerFactory factory;
  private JpaTaskStore store;
  private JpaTaskQueries queries;
  private JpaInstanceStore instanceStore;

  @BeforeEach
  void open() {
    factory = H2TestDatabase.inMemory("recovery");
    ResourceLocalTransactor tx = new ResourceLocalTransactor(factory);
    store = new JpaTaskStore(tx, AuditLevel.MINIMAL);
    queries = new JpaTaskQueries(tx);
    instanceStore = new JpaInstanceStore(tx);
  }

  @AfterEach
  void close() {
    threads.shutdownNow();
    factory.close();
  }

  @Test
  void aBacklogTwentyTimesTheQueueIsRecoveredWithoutWaitingForRoomAndRunsOnceEach()
      throws Exception {
    Instant now = Instant.now();
    List<StoredTask> backlog = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      backlog.add(task(now.minusSeconds(60)));
    }
    insert(backlog);
    // a dispatch would wait a minute for room: recovery must never wait at all
    TaskEngine engine = engine(Map.of("taskgate.dispatch.max-wait", "PT60S"), this::cancel);

    int handed = engine.recover();

    assertThat(handed).isBetween(100, 2_000);
    awaitRuns(2_000, Duration.ofSeconds(30));
    assertThat(runs.keySet())
        .containsExactlyInAnyOrderElementsOf(backlog.stream().map(StoredTask::id).toList());
    assertThat(runs.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
  }

  @Test
  void anInterruptedAttemptIsQueuedAgainWithItsAttemptGivenBack() throws Exception {
    Instant now = Instant.now();
    StoredTask running = task(now.minusSeconds(5));
    insert(List.of(running));
    StoredTask second =
        store
            .update(running, running.withStatus(TaskStatus.IN_PROGRESS).withAttempt(2), now)
            .orElseThrow();
    TaskEngine engine = engine(Map.of(), ids -> {});

    engine.recover();

    awaitRuns(1, Duration.ofSeconds(10));
    StoredTask requeued = store.find(second.id()).orElseThrow();
    assertThat(requeued.status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(requeued.attempt()).as("the attempt cut short does not count").isEqualTo(1);
    assertThat(requeued.lastError())
        .isEqualTo(
            "interrupted: attempt 2 did not finish (the application stopped); it runs again and"
                + " is not counted");
  }

  @Test
  void aRecurringTaskThatMissedOccurrencesWhileDownMovesOnToItsNextOneInsteadOfRunningAtOnce() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS); // the store keeps microseconds
    // Every 2 s, last due 9 s ago: four occurrences passed while the application was down.
    Instant lastDue = now.minusSeconds(9);
    StoredTask series =
        StoredTask.queued(
            UUID.randomUUID(),
            TYPE,
            "{}",
            "default",
            null,
            lastDue,
            Recurrence.every(Duration.ofSeconds(2)).withMaxRuns(2).encode(),
            now);
    insert(List.of(series));
    TaskEngine engine = engine(Map.of(), ids -> {});

    engine.recover();

    StoredTask rearmed = store.find(series.id()).orElseThrow();
    assertThat(rearmed.status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(rearmed.scheduledAt()).isEqualTo(lastDue.plusSeconds(10)).isAfter(now);
    assertThat(rearmed.runs()).isZero();
    assertThat(runs).as("not run at once: its next occurrence is ahead").isEmpty();
  }

  @Test
  void aSweepBeforeRecoveryHasEndedReadsNothingSoRecoveryMovesMissedOccurrencesOn() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    Instant lastDue = now.minusSeconds(9);
    StoredTask series =
        StoredTask.queued(
            UUID.randomUUID(),
            TYPE,
            "{}",
            "default",
            null,
            lastDue,
            Recurrence.every(Duration.ofSeconds(2)).encode(),
            now);
    insert(List.of(series));
    TaskEngine engine = engine(Map.of(), ids -> {});

    engine.sweep(); // the sweeper's first tick, before the application has initialised

    assertThat(engine.scheduler.holds(series.id())).as("the sweep did not take it").isFalse();
    engine.recover();
    assertThat(store.find(series.id()).orElseThrow().scheduledAt())
        .isEqualTo(lastDue.plusSeconds(10));
  }

  @Test
  void aStoredTaskThatCannotBeScheduledFailsAloneWithItsReasonAndTheRestRun() throws Exception {
    Instant now = Instant.now();
    StoredTask farAhead = task(now.plus(Duration.ofDays(250L * 365)));
    StoredTask unreadableRecurrence =
        StoredTask.queued(
            UUID.randomUUID(), TYPE, "{}", "default", null, now.minusSeconds(30), "every:??", now);
    StoredTask healthy = task(now.minusSeconds(1));
    insert(List.of(farAhead, unreadableRecurrence, healthy));
    TaskEngine engine = engine(Map.of(), this::cancel);

    engine.recover();

    awaitRuns(1, Duration.ofSeconds(10));
    assertThat(runs).containsOnlyKeys(healthy.id());
    StoredTask failedFar = store.find(farAhead.id()).orElseThrow();
    assertThat(failedFar.status()).isEqualTo(TaskStatus.FAILED);
    assertThat(failedFar.lastError())
        .startsWith("cannot be scheduled: task " + farAhead.id() + " is scheduled at ")
        .contains("days ahead");
    StoredTask failedRecurrence = store.find(unreadableRecurrence.id()).orElseThrow();
    assertThat(failedRecurrence.status()).isEqualTo(TaskStatus.FAILED);
    assertThat(failedRecurrence.lastError())
        .startsWith("cannot be scheduled: its recurrence cannot be read (every:??)");
  }

  private TaskEngine engine(Map<String, String> settings, Consumer<List<UUID>> onRun) {
    Map<String, String> all = new java.util.HashMap<>(settings);
    all.putIfAbsent("taskgate.queue.default.capacity", "100");
    all.putIfAbsent("taskgate.queue.default.parallelism", "2");
    TaskEngine engine = new TaskEngine();
    TaskScheduler[] scheduler = new TaskScheduler[1];
    TaskQueues queues =
        EngineParts.queues(
            all,
            threads,
            ids -> {
              // as the runner's claim: a task no longer queued (a read raced its run) is dropped
              List<UUID> claimed = new ArrayList<>();
              for (StoredTask task : store.findAll(ids)) {
                if (task.status() == TaskStatus.QUEUED) {
                  claimed.add(task.id());
                }
              }
              onRun.accept(claimed);
              for (UUID id : claimed) {
                runs.computeIfAbsent(id, x -> new AtomicInteger()).incrementAndGet();
              }
              ids.forEach(id -> scheduler[0].release(id));
            });
    scheduler[0] =
        SchedulerWiring.scheduler(
            queues,
            EngineParts.timers(threads, new AtomicInteger()),
            InstantSource.system(),
            System::nanoTime);
    engine.clock = InstantSource.system();
    engine.store = store;
    engine.queries = queries;
    engine.scheduler = scheduler[0];
    engine.queues = queues;
    engine.instances = ClusterWiring.instances("node-a", instanceStore, engine.clock);
    engine.executor =
        EngineParts.managed(ManagedExecutorService.class, threads, new AtomicInteger());
    engine.queues.onRoom(engine::refillSoon);
    return engine;
  }

  /** What a worker's claim does to the row: it leaves QUEUED, so no later read finds it. */
  private void cancel(List<UUID> ids) {
    Instant now = Instant.now();
    List<TaskWrite> writes = new ArrayList<>();
    for (StoredTask task : store.findAll(ids)) {
      writes.add(new TaskWrite.Update(task, task.withStatus(TaskStatus.CANCELLED), now));
    }
    store.writeAll(writes);
  }

  private static StoredTask task(Instant scheduledAt) {
    return StoredTask.queued(
        UUID.randomUUID(), TYPE, "{}", "default", null, scheduledAt, null, Instant.now());
  }

  private void insert(List<StoredTask> tasks) {
    List<TaskWrite> writes = new ArrayList<>();
    tasks.forEach(task -> writes.add(new TaskWrite.Insert(task)));
    store.writeAll(writes);
  }

  private void awaitRuns(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (runs.size() < count && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(10);
    }
    assertThat(runs).hasSize(count);
  }
}
