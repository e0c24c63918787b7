package io.taskgate.store.jpa;

import static io.taskgate.api.TaskStatus.CANCELLED;
import static io.taskgate.api.TaskStatus.COMPLETED;
import static io.taskgate.api.TaskStatus.IN_PROGRESS;
import static io.taskgate.api.TaskStatus.QUEUED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.core.task.AuditLevel;
import io.taskgate.store.CommitWait;
import io.taskgate.store.GroupCommitTaskStore;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import io.taskgate.store.TaskWrite;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The group-committing store over the JPA store on a private in-memory H2 database. */
class GroupCommitTaskStoreTest {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private EntityManagerFactory factory;
  private JpaTaskStore jpa;
  private JpaTaskQueries queries;
  private Recording recording;
  private final ExecutorService callers = Executors.newFixedThreadPool(16);
  private final List<GroupCommitTaskStore> opened = new ArrayList<>();

  @BeforeEach
  void open() {
    factory = H2TestDatabase.inMemory("group");
    ResourceLocalTransactor tx = new ResourceLocalTransactor(factory);
    jpa = new JpaTaskStore(tx, AuditLevel.FULL);
    queries = new JpaTaskQueries(tx);
    recording = new Recording(jpa);
  }

  @AfterEach
  void close() {
    opened.forEach(GroupCommitTaskStore::close);
    callers.shutdownNow();
    factory.close();
  }

  private GroupCommitTaskStore grouped(int writers, boolean callerInTransaction) {
    GroupCommitTaskStore store =
        new GroupCommitTaskStore(
            recording, Executors.defaultThreadFactory(), writers, 50, () -> callerInTransaction);
    opened.add(store);
    return store;
  }

  private static StoredTask queued() {
    return StoredTask.queued(UUID.randomUUID(), "T", "{}", "default", null, T0, null, T0);
  }

  @Test
  void writesWaitingTogetherAreCommittedInOneTransaction() throws Exception {
    GroupCommitTaskStore store = grouped(1, false);
    recording.holdFirstBatch = new CountDownLatch(1);
    Future<?> first = callers.submit(() -> store.insert(queued()));
    assertThat(recording.firstBatchStarted.await(10, TimeUnit.SECONDS)).isTrue();
    List<Future<?>> next = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      next.add(callers.submit(() -> store.insert(queued())));
    }
    waitUntil(() -> store.batches() == 0 && waiting(store) == 10);
    recording.holdFirstBatch.countDown();
    first.get(10, TimeUnit.SECONDS);
    for (Future<?> f : next) {
      f.get(10, TimeUnit.SECONDS);
    }

    assertThat(recording.batchSizes).containsExactly(1, 10);
    assertThat(store.batches()).isEqualTo(2);
    assertThat(store.batchedWrites()).isEqualTo(11);
    assertThat(queries.findByStatus(EnumSet.of(QUEUED), 100)).hasSize(11);
  }

  @Test
  void aLoneWriteIsCommittedOnItsCallersThreadAndAHelpingCallersOnAWriter() {
    GroupCommitTaskStore store = grouped(1, false);
    StoredTask task = queued();

    store.insert(task); // nothing waiting, the writer idle: the caller commits it
    store.writeAll(
        List.of(new TaskWrite.Update(task, task.withStatus(IN_PROGRESS), T0)),
        new CommitWait() {
          @Override
          public <T> T await(java.util.concurrent.CompletableFuture<T> commit) {
            return CommitWait.join(commit); // a worker would start tasks meanwhile
          }
        });

    assertThat(recording.threads).hasSize(2);
    assertThat(recording.threads.get(0)).isSameAs(Thread.currentThread());
    assertThat(recording.threads.get(1)).isNotSameAs(Thread.currentThread());
    assertThat(store.batches()).isEqualTo(2);
    assertThat(queries.findByStatus(EnumSet.of(IN_PROGRESS), 10)).hasSize(1);
  }

  @Test
  void withWritersOnlyALoneWriteIsCommittedOnAWriter() {
    GroupCommitTaskStore store = grouped(1, false).writersOnly();

    store.insert(queued());

    assertThat(recording.threads).hasSize(1);
    assertThat(recording.threads.get(0)).isNotSameAs(Thread.currentThread());
  }

  @Test
  void manyCallersGetTheirOwnAnswersAndEveryWriteIsStored() throws Exception {
    GroupCommitTaskStore store = grouped(2, false);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      results.add(
          callers.submit(
              () -> {
                StoredTask task = queued();
                store.insert(task);
                StoredTask claimed =
                    store.update(task, task.withStatus(IN_PROGRESS), T0).orElseThrow();
                boolean lost =
                    store.update(task, task.withStatus(CANCELLED), T0).isEmpty(); // stale
                return lost && store.update(claimed, claimed.withStatus(COMPLETED), T0).isPresent();
              }));
    }
    for (Future<Boolean> result : results) {
      assertThat(result.get(30, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(queries.findByStatus(EnumSet.of(COMPLETED), 1000)).hasSize(400);
    assertThat(store.batchedWrites()).isEqualTo(1600);
  }

  @Test
  void aBadWriteFailsAloneAndTheRestOfItsBatchCommits() throws Exception {
    GroupCommitTaskStore store = grouped(1, false);
    StoredTask done = queued().withStatus(COMPLETED);
    jpa.insert(done);
    recording.holdFirstBatch = new CountDownLatch(1);
    Future<?> first = callers.submit(() -> store.insert(queued()));
    assertThat(recording.firstBatchStarted.await(10, TimeUnit.SECONDS)).isTrue();
    StoredTask good = queued();
    Future<?> goodInsert = callers.submit(() -> store.insert(good));
    Future<?> bad = callers.submit(() -> store.update(done, done.withStatus(QUEUED), T0));
    waitUntil(() -> waiting(store) == 2);
    recording.holdFirstBatch.countDown();
    first.get(10, TimeUnit.SECONDS);
    goodInsert.get(10, TimeUnit.SECONDS);

    assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(IllegalStateException.class)
        .hasRootCauseMessage(
            "Task " + done.id() + " cannot move from COMPLETED to QUEUED: COMPLETED is terminal");
    assertThat(jpa.find(good.id())).isPresent();
    assertThat(recording.batchSizes).containsExactly(1, 2, 1, 1);
  }

  @Test
  void aCallerInItsOwnTransactionWritesDirectly() {
    GroupCommitTaskStore store = grouped(1, true);
    StoredTask task = queued();

    store.insert(task);

    assertThat(store.batches()).isZero();
    assertThat(jpa.find(task.id())).isPresent();
  }

  @Test
  void afterCloseWritesGoDirectlyAndNothingIsLost() {
    GroupCommitTaskStore store = grouped(2, false);
    StoredTask before = queued();
    store.insert(before);
    store.close();
    StoredTask after = queued();

    store.insert(after);

    assertThat(store.batchedWrites()).isEqualTo(1);
    assertThat(jpa.find(before.id())).isPresent();
    assertThat(jpa.find(after.id())).isPresent();
  }

  @Test
  void invalidSettingsAreRefusedNamingThem() {
    assertThatThrownBy(
            () ->
                new GroupCommitTaskStore(jpa, Executors.defaultThreadFactory(), 0, 10, () -> false))
        .hasMessage("writerCount must be at least 1, was 0");
    assertThatThrownBy(
            () ->
                new GroupCommitTaskStore(jpa, Executors.defaultThreadFactory(), 1, 0, () -> false))
        .hasMessage("maxBatch must be at least 1, was 0");
  }

  private static int waiting(GroupCommitTaskStore store) {
    try {
      var field = GroupCommitTaskStore.class.getDeclaredField("waiting");
      field.setAccessible(true);
      return ((java.util.Collection<?>) field.get(store)).size();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void waitUntil(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 10 s");
      }
      Thread.sleep(5);
    }
  }

  /** The JPA store, recording the size of every writeAll and able to hold the first one. */
  static final class Recording extends io.taskgate.store.ForwardingTaskStore {
    final TaskStore store;
    final List<Integer> batchSizes = new CopyOnWriteArrayList<>();
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    final CountDownLatch firstBatchStarted = new CountDownLatch(1);
    volatile CountDownLatch holdFirstBatch;

    Recording(TaskStore store) {
      super(store);
      this.store = store;
    }

    @Override
    public List<Optional<StoredTask>> writeAll(List<TaskWrite> writes) {
      batchSizes.add(writes.size());
      threads.add(Thread.currentThread());
      if (firstBatchStarted.getCount() > 0) {
        firstBatchStarted.countDown();
        CountDownLatch hold = holdFirstBatch;
        if (hold != null) {
          try {
            hold.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
      return store.writeAll(writes);
    }

    @Override
    public void insert(StoredTask task) {
      writeAll(List.of(new TaskWrite.Insert(task)));
    }

    @Override
    public Optional<StoredTask> update(StoredTask expected, StoredTask changed, Instant now) {
      return writeAll(List.of(new TaskWrite.Update(expected, changed, now))).get(0);
    }
  }
}
