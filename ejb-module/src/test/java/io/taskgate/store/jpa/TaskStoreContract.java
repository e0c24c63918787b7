package io.taskgate.store.jpa;

import static io.taskgate.api.TaskStatus.CANCELLED;
import static io.taskgate.api.TaskStatus.COMPLETED;
import static io.taskgate.api.TaskStatus.FAILED;
import static io.taskgate.api.TaskStatus.IN_PROGRESS;
import static io.taskgate.api.TaskStatus.QUEUED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.core.task.RetryPolicy;
import io.taskgate.store.DueTask;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import io.taskgate.store.TaskFilter;
import io.taskgate.store.TaskPage;
import io.taskgate.store.TaskQuery;
import io.taskgate.store.TaskWrite;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every {@link JpaTaskStore} database (and its {@link JpaTaskQueries}) must do, run once per
 * database by a subclass that opens it. Each test empties both tables first and seeds its own
 * tasks; time is always passed in.
 *
 * <p>Precision: instants are kept to the microsecond on every database (H2 and PostgreSQL both keep
 * {@code TIMESTAMP(6) WITH TIME ZONE}); the store cuts the nanoseconds off before writing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TaskStoreContract {

  static final String TEST_UNIT = "taskgate-test";
  static final String TEST_PERSISTENCE_XML = "META-INF/taskgate-test-persistence.xml";
  static final Instant T0 = Instant.parse("2025-03-30T00:59:58.123456789Z");
  static final String TYPE = "com.example.SendMail";

  private EntityManagerFactory factory;
  private Transactor tx;
  private JpaTaskStore store;
  private JpaTaskQueries queries;
  JpaTaskPruning pruning;

  /** The store under test. */
  JpaTaskStore store() {
    return store;
  }

  /** Opens the database (empty or not) and a factory on unit {@value #TEST_UNIT}. */
  abstract EntityManagerFactory openFactory() throws Exception;

  /** Drops what {@link #openFactory()} created. */
  abstract void dropDatabase() throws Exception;

  /**
   * The type names this database's JDBC metadata gives the columns that must be portable: id,
   * payload, scheduled_at, last_error.
   */
  abstract List<String> expectedColumnTypes();

  /**
   * The store under test, on {@code tx}; a subclass has it commit its own writes directly on the
   * database's data source ({@link JpaTaskStore#writingThrough}), as the container does.
   */
  JpaTaskStore newStore(Transactor tx) {
    return new JpaTaskStore(tx, AuditLevel.FULL);
  }

  @BeforeAll
  void open() throws Exception {
    factory = openFactory();
    tx = new ResourceLocalTransactor(factory);
    store = newStore(tx);
    queries = new JpaTaskQueries(tx);
    pruning = new JpaTaskPruning(tx);
  }

  @AfterAll
  void close() throws Exception {
    if (factory != null) {
      factory.close();
    }
    dropDatabase();
  }

  @BeforeEach
  void emptyTables() {
    tx.inTransaction(
        em -> {
          em.createQuery("DELETE FROM TaskAuditEntity a").executeUpdate();
          em.createQuery("DELETE FROM UniqueEntity u").executeUpdate();
          return em.createQuery("DELETE FROM TaskEntity t").executeUpdate();
        });
  }

  static StoredTask queued(String key, Instant scheduledAt, Instant now) {
    return StoredTask.queued(
        UUID.randomUUID(),
        TYPE,
        "{\"to\":\"a@example.com\"}",
        "default",
        key,
        scheduledAt,
        null,
        now);
  }

  static StoredTask inStatus(TaskStatus status, Instant now) {
    return queued(null, now, now).withStatus(status);
  }

  static Instant micros(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MICROS);
  }

  // ---- schema

  @Test
  void theSchemaHasThePortableColumnTypes() {
    List<String> types =
        tx.inTransaction(
            em -> {
              try {
                DatabaseMetaData meta = em.unwrap(Connection.class).getMetaData();
                List<String> found = new ArrayList<>();
                for (String column : List.of("id", "payload", "scheduled_at", "last_error")) {
                  found.add(columnType(meta, "taskgate_task", column));
                }
                return found;
              } catch (SQLException e) {
                throw new IllegalStateException(e);
              }
            });

    assertThat(types).containsExactlyElementsOf(expectedColumnTypes());
  }

  private static String columnType(DatabaseMetaData meta, String table, String column)
      throws SQLException {
    for (String t : List.of(table, table.toUpperCase(Locale.ROOT))) {
      for (String c : List.of(column, column.toUpperCase(Locale.ROOT))) {
        try (ResultSet rs = meta.getColumns(null, null, t, c)) {
          if (rs.next()) {
            return rs.getString("TYPE_NAME") + "(" + rs.getInt("COLUMN_SIZE") + ")";
          }
        }
      }
    }
    return "missing";
  }

  // ---- insert and find

  @Test
  void findReadsBackEveryFieldToTheMicrosecond() {
    StoredTask task =
        new StoredTask(
            UUID.randomUUID(),
            TYPE,
            "{\"to\":\"ünïcødé 🚀\"}",
            IN_PROGRESS,
            "mail",
            "customer-42",
            T0.plusSeconds(30),
            3,
            "java.io.IOException: timeout",
            "every=PT10S;maxRuns=5",
            7,
            T0,
            T0.plusNanos(210),
            0,
            null,
            null,
            null);
    store.insert(task);

    StoredTask read = store.find(task.id()).orElseThrow();

    assertThat(read)
        .isEqualTo(
            new StoredTask(
                task.id(),
                TYPE,
                "{\"to\":\"ünïcødé 🚀\"}",
                IN_PROGRESS,
                "mail",
                "customer-42",
                Instant.parse("2025-03-30T01:00:28.123456Z"),
                3,
                "java.io.IOException: timeout",
                "every=PT10S;maxRuns=5",
                7,
                Instant.parse("2025-03-30T00:59:58.123456Z"),
                Instant.parse("2025-03-30T00:59:58.123456Z"),
                0,
                null,
                null,
                null));
  }

  @Test
  void findKeepsNullsAndAnUnknownIdIsEmpty() {
    StoredTask task = queued(null, T0, T0);
    store.insert(task);

    StoredTask read = store.find(task.id()).orElseThrow();

    assertThat(read.taskKey()).isNull();
    assertThat(read.lastError()).isNull();
    assertThat(read.recurrence()).isNull();
    assertThat(read.version()).isZero();
    assertThat(store.find(UUID.randomUUID())).isEmpty();
  }

  @Test
  void instantsDoNotDependOnTheJvmTimeZone() {
    // 02:30 UTC on 2025-03-30 is a wall-clock time that does not exist in Paris (clocks jump from
    // 02:00 to 03:00): a store that wrote UTC wall-clock times through the JVM zone would shift it.
    Instant inTheGap = Instant.parse("2025-03-30T02:30:00.000001Z");
    TimeZone before = TimeZone.getDefault();
    StoredTask read;
    StoredTask task = queued(null, inTheGap, inTheGap);
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("Europe/Paris"));
      store.insert(task);
      read = store.find(task.id()).orElseThrow();
    } finally {
      TimeZone.setDefault(before);
    }
    assertThat(read.scheduledAt()).isEqualTo(inTheGap);
    assertThat(store.find(task.id()).orElseThrow().createdAt()).isEqualTo(inTheGap);
  }

  @Test
  void aLargePayloadRoundTrips() {
    StringBuilder json = new StringBuilder("{\"lines\":[");
    for (int i = 0; json.length() < 1_100_000; i++) {
      json.append(i == 0 ? "" : ",").append("\"line ").append(i).append(" ✓ äöü\"");
    }
    String payload = json.append("]}").toString();
    StoredTask task = queued(null, T0, T0).withPayload(payload);
    store.insert(task);

    assertThat(store.find(task.id()).orElseThrow().payload()).isEqualTo(payload);

    String bigger = payload.replace("✓", "✗");
    StoredTask changed = store.update(task, task.withPayload(bigger), T0).orElseThrow();
    assertThat(changed.payload()).isEqualTo(bigger);
    assertThat(store.find(task.id()).orElseThrow().payload()).isEqualTo(bigger);
  }

  @Test
  void lastErrorIsCutToTheColumnWithoutSplittingACharacter() {
    String rocket = "🚀"; // two chars: a surrogate pair
    // The high surrogate of the rocket is the last character that would fit: it goes too.
    String longError = "x".repeat(TaskEntity.ERROR_LENGTH - 10) + rocket + "tail";
    StoredTask task = queued(null, T0, T0);
    store.insert(task);

    StoredTask failed =
        store
            .update(task, task.withStatus(FAILED).withLastError("nul\0here " + longError), T0)
            .orElseThrow();

    StoredTask read = store.find(task.id()).orElseThrow();
    assertThat(read).isEqualTo(failed);
    assertThat(read.lastError())
        .hasSize(TaskEntity.ERROR_LENGTH - 1)
        .endsWith("xxx")
        .startsWith("nul\uFFFDhere xxx")
        .doesNotContain("\0");
    assertThat(queries.history(task.id()).get(1).detail()).isEqualTo(read.lastError());

    String exact = "y".repeat(TaskEntity.ERROR_LENGTH - 2) + rocket;
    StoredTask other = queued(null, T0, T0);
    store.insert(other);
    store.update(other, other.withLastError(exact), T0);
    assertThat(store.find(other.id()).orElseThrow().lastError()).isEqualTo(exact);
  }

  @Test
  void valuesLongerThanTheirColumnAreRefusedByName() {
    StoredTask task = queued("k".repeat(TaskEntity.NAME_LENGTH + 1), T0, T0);

    assertThatThrownBy(() -> store.insert(task))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("taskKey must be at most 255 characters, was 256");
    assertThat(store.find(task.id())).isEmpty();
  }

  @Test
  void theLongestTaskKeyAndTheFarthestDueTimesADispatchAllowsAreKept() {
    List<Instant> farthest =
        List.of(
            T0.plus(DispatchOptions.MAX_DELAY),
            T0.minus(DispatchOptions.MAX_DELAY),
            T0.plus(RetryPolicy.MAX_DELAY.multipliedBy(2))); // a retry's longest wait
    for (int i = 0; i < farthest.size(); i++) {
      String key = "k".repeat(DispatchOptions.MAX_NAME_LENGTH - 2) + "✓" + i;
      StoredTask task = queued(key, farthest.get(i), T0);
      store.insert(task);

      StoredTask read = store.find(task.id()).orElseThrow();
      assertThat(read.taskKey()).isEqualTo(key).hasSize(DispatchOptions.MAX_NAME_LENGTH);
      assertThat(read.scheduledAt()).isEqualTo(micros(farthest.get(i)));
    }
    assertThat(TaskEntity.NAME_LENGTH).isEqualTo(DispatchOptions.MAX_NAME_LENGTH);
    assertThat(TaskEntity.RECURRENCE_LENGTH).isEqualTo(Recurrence.MAX_ENCODED_LENGTH);
  }

  // ---- insertUnique

  static final io.taskgate.api.UniquePolicy LIVE_ONLY =
      io.taskgate.api.UniquePolicy.of(io.taskgate.api.UniqueConflict.KEEP, QUEUED, IN_PROGRESS);

  static io.taskgate.store.UniqueClaim claim(String key, io.taskgate.api.UniquePolicy policy) {
    return new io.taskgate.store.UniqueClaim(TYPE, key, policy);
  }

  @Test
  void aUniqueKeyBelongsToItsTaskWhileThePolicySaysThenTheNextTaskTakesItOver() {
    StoredTask first = queued("order-1", T0, T0);
    assertThat(store.insertUnique(first, claim("order-1", LIVE_ONLY))).isEmpty();

    StoredTask second = queued("order-1", T0, T0.plusSeconds(1));
    assertThat(store.insertUnique(second, claim("order-1", LIVE_ONLY))).contains(first.id());
    assertThat(store.find(second.id())).as("not stored").isEmpty();
    StoredTask running =
        store.update(queued(first), queued(first).withStatus(IN_PROGRESS), T0).orElseThrow();
    assertThat(store.insertUnique(second, claim("order-1", LIVE_ONLY))).contains(first.id());
    StoredTask other =
        StoredTask.queued(
            UUID.randomUUID(), "com.example.Other", "{}", "default", "order-1", T0, null, T0);
    assertThat(
            store.insertUnique(
                other, new io.taskgate.store.UniqueClaim(other.type(), "order-1", LIVE_ONLY)))
        .as("another type's key")
        .isEmpty();

    store.update(running, running.withStatus(COMPLETED), T0.plusSeconds(2));
    StoredTask third = queued("order-1", T0, T0.plusSeconds(3));
    assertThat(store.insertUnique(third, claim("order-1", LIVE_ONLY))).isEmpty();
    assertThat(store.find(third.id())).contains(queued(third));
    assertThat(
            store.insertUnique(
                queued("order-1", T0, T0.plusSeconds(4)), claim("order-1", LIVE_ONLY)))
        .contains(third.id());
    assertThat(queries.history(third.id())).hasSize(1); // its audit row, as insert writes it
  }

  @Test
  void aUniqueKeyWithAPeriodIsFreeOnceThePeriodAfterItsTasksDispatchIsOver() {
    io.taskgate.api.UniquePolicy daily =
        io.taskgate.api.UniquePolicy.of(
                io.taskgate.api.UniqueConflict.KEEP, QUEUED, IN_PROGRESS, COMPLETED)
            .within(java.time.Duration.ofHours(1));
    StoredTask sent = queued("welcome-7", T0, T0).withStatus(COMPLETED);
    assertThat(store.insertUnique(sent, claim("welcome-7", daily))).isEmpty();

    assertThat(
            store.insertUnique(
                queued("welcome-7", T0, T0.plusSeconds(3599)), claim("welcome-7", daily)))
        .contains(sent.id());
    StoredTask later = queued("welcome-7", T0, T0.plusSeconds(3601));
    assertThat(store.insertUnique(later, claim("welcome-7", daily))).isEmpty();
    assertThat(store.find(later.id())).isPresent();
  }

  @Test
  void aUniqueKeyWhoseTaskWasDeletedIsFreeAndPruningDeletesTheKey() {
    StoredTask done = queued("order-9", T0, T0).withStatus(COMPLETED);
    io.taskgate.api.UniquePolicy ever =
        io.taskgate.api.UniquePolicy.of(io.taskgate.api.UniqueConflict.KEEP, COMPLETED);
    store.insertUnique(done, claim("order-9", ever));
    assertThat(store.insertUnique(queued("order-9", T0, T0), claim("order-9", ever)))
        .contains(done.id());

    assertThat(
            pruning.delete(io.taskgate.store.TaskFilter.of(java.util.Set.of(COMPLETED)), 10, false))
        .isEqualTo(1);
    long keys =
        tx.inTransaction(
            em ->
                em.createQuery("SELECT COUNT(u) FROM UniqueEntity u", Long.class)
                    .getSingleResult());
    assertThat(keys).isZero();
    StoredTask again = queued("order-9", T0, T0.plusSeconds(1));
    assertThat(store.insertUnique(again, claim("order-9", ever))).isEmpty();
  }

  @Test
  void claimsOfOneKeyAtOnceStoreOneTaskBetweenThem() throws Exception {
    java.util.concurrent.ExecutorService threads =
        java.util.concurrent.Executors.newFixedThreadPool(6);
    try {
      for (int round = 0; round < 5; round++) {
        String key = "race-" + round;
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<java.util.Optional<UUID>>> answers = new ArrayList<>();
        List<StoredTask> tasks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          StoredTask task = queued(key, T0, T0);
          tasks.add(task);
          answers.add(
              threads.submit(
                  () -> {
                    go.await();
                    return store.insertUnique(task, claim(key, LIVE_ONLY));
                  }));
        }
        go.countDown();
        List<java.util.Optional<UUID>> got = new ArrayList<>();
        for (var answer : answers) {
          got.add(answer.get(30, java.util.concurrent.TimeUnit.SECONDS));
        }
        List<StoredTask> stored =
            tasks.stream().filter(t -> store.find(t.id()).isPresent()).toList();
        assertThat(stored).as("round " + round + ": tasks stored").hasSize(1);
        assertThat(got).as("round " + round).filteredOn(java.util.Optional::isEmpty).hasSize(1);
        assertThat(got)
            .filteredOn(java.util.Optional::isPresent)
            .allSatisfy(g -> assertThat(g).contains(stored.get(0).id()));
      }
    } finally {
      threads.shutdownNow();
    }
  }

  // ---- findLive

  @Test
  void findLiveReturnsOnlyATaskThatIsNotTerminal() {
    StoredTask queued = queued("order-1", T0, T0);
    store.insert(queued);
    assertThat(store.findLive(TYPE, "order-1")).contains(queued(queued));

    StoredTask running = store.update(queued, queued.withStatus(IN_PROGRESS), T0).orElseThrow();
    assertThat(store.findLive(TYPE, "order-1")).contains(running);

    store.update(running, running.withStatus(COMPLETED), T0.plusSeconds(1));
    assertThat(store.findLive(TYPE, "order-1")).isEmpty();

    for (TaskStatus terminal : List.of(COMPLETED, FAILED, CANCELLED)) {
      StoredTask done = queued("order-2", T0, T0).withStatus(terminal);
      store.insert(done);
    }
    assertThat(store.findLive(TYPE, "order-2")).isEmpty();
    StoredTask again = queued("order-2", T0, T0.plusSeconds(5));
    store.insert(again);
    assertThat(store.findLive(TYPE, "order-2")).contains(queued(again));
    assertThat(store.findLive("com.example.Other", "order-2")).isEmpty();
    assertThat(store.findLive(TYPE, "order-3")).isEmpty();
    assertThat(store.findLive(TYPE, null)).isEmpty();
  }

  private static StoredTask queued(StoredTask task) {
    return new StoredTask(
        task.id(),
        task.type(),
        task.payload(),
        task.status(),
        task.queue(),
        task.taskKey(),
        micros(task.scheduledAt()),
        task.attempt(),
        task.lastError(),
        task.recurrence(),
        task.runs(),
        micros(task.createdAt()),
        micros(task.updatedAt()),
        task.version(),
        task.owner(),
        null,
        null);
  }

  // ---- update

  @Test
  void updateWritesTheChangeTheTimeAndTheNextVersion() {
    StoredTask task = queued("k", T0, T0);
    store.insert(task);
    Instant now = T0.plusSeconds(2).plusNanos(7);

    StoredTask changed =
        task.withStatus(IN_PROGRESS)
            .withAttempt(1)
            .withScheduledAt(T0.plusSeconds(1))
            .withRuns(4)
            .withLastError("boom");
    StoredTask updated = store.update(task, changed, now).orElseThrow();

    assertThat(updated.version()).isEqualTo(1);
    assertThat(updated.updatedAt()).isEqualTo(micros(now));
    assertThat(updated.createdAt()).isEqualTo(micros(T0));
    assertThat(updated.status()).isEqualTo(IN_PROGRESS);
    assertThat(updated.attempt()).isEqualTo(1);
    assertThat(updated.runs()).isEqualTo(4);
    assertThat(updated.lastError()).isEqualTo("boom");
    assertThat(updated.scheduledAt()).isEqualTo(micros(T0.plusSeconds(1)));
    assertThat(store.find(task.id())).contains(updated);
  }

  @Test
  void aStaleVersionChangesNothingAndReturnsEmpty() {
    StoredTask task = queued("k", T0, T0);
    store.insert(task);
    StoredTask first = store.update(task, task.withStatus(IN_PROGRESS), T0).orElseThrow();

    Optional<StoredTask> stale =
        store.update(task, task.withStatus(CANCELLED).withPayload("{}"), T0.plusSeconds(1));

    assertThat(stale).isEmpty();
    assertThat(store.find(task.id())).contains(first);
    assertThat(queries.history(task.id()))
        .extracting(TaskAudit::to)
        .containsExactly(QUEUED, IN_PROGRESS);
    assertThat(store.update(first, first.withStatus(COMPLETED), T0.plusSeconds(2)))
        .map(StoredTask::version)
        .contains(2L);
  }

  @Test
  void anUpdateOfAMissingTaskReturnsEmpty() {
    StoredTask neverStored = queued(null, T0, T0);

    assertThat(store.update(neverStored, neverStored.withStatus(IN_PROGRESS), T0)).isEmpty();
    assertThat(queries.history(neverStored.id())).isEmpty();
  }

  @Test
  void updateRefusesToChangeTheIdentityOfATask() {
    StoredTask task = queued(null, T0, T0);
    store.insert(task);
    StoredTask otherId = queued(null, T0, T0);
    StoredTask otherType =
        new StoredTask(
            task.id(),
            "com.example.Other",
            task.payload(),
            task.status(),
            task.queue(),
            task.taskKey(),
            task.scheduledAt(),
            0,
            null,
            null,
            0,
            task.createdAt(),
            task.updatedAt(),
            0,
            null,
            null,
            null);

    assertThatThrownBy(() -> store.update(task, otherId, T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot change a task's id");
    assertThatThrownBy(() -> store.update(task, otherType, T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot change a task's type");
    assertThat(store.find(task.id()).orElseThrow().version()).isZero();
  }

  static final Map<TaskStatus, Set<TaskStatus>> ALLOWED =
      Map.of(
          QUEUED, EnumSet.of(IN_PROGRESS, CANCELLED, FAILED, QUEUED, COMPLETED),
          IN_PROGRESS, EnumSet.of(COMPLETED, FAILED, QUEUED, CANCELLED),
          FAILED, EnumSet.of(QUEUED), // requeued
          CANCELLED, EnumSet.of(QUEUED));

  static Stream<Arguments> everyMove() {
    List<Arguments> moves = new ArrayList<>();
    for (TaskStatus from : TaskStatus.values()) {
      for (TaskStatus to : TaskStatus.values()) {
        moves.add(Arguments.of(from, to, ALLOWED.getOrDefault(from, Set.of()).contains(to)));
      }
    }
    return moves.stream();
  }

  @ParameterizedTest(name = "{0} -> {1} allowed: {2}")
  @MethodSource("everyMove")
  void onlyTheTransitionTableMovesATask(TaskStatus from, TaskStatus to, boolean allowed) {
    StoredTask task = inStatus(from, T0);
    store.insert(task);

    if (allowed) {
      assertThat(store.update(task, task.withStatus(to), T0)).map(StoredTask::status).contains(to);
    } else {
      assertThatThrownBy(() -> store.update(task, task.withStatus(to), T0))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Task " + task.id())
          .hasMessageContaining("from " + from + " to " + to);
      assertThat(store.find(task.id()).orElseThrow().status()).isEqualTo(from);
      assertThat(store.find(task.id()).orElseThrow().version()).isZero();
    }
  }

  @Test
  void aMoveOutOfATerminalStatusSaysItIsTerminal() {
    StoredTask task = inStatus(COMPLETED, T0);
    store.insert(task);

    assertThatThrownBy(() -> store.update(task, task.withStatus(QUEUED), T0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Task " + task.id() + " cannot move from COMPLETED to QUEUED: COMPLETED is terminal");
  }

  @Test
  void twoThreadsUpdatingOneTaskExactlyOneWins() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 10; round++) {
        StoredTask task = queued(null, T0, T0);
        store.insert(task);
        CyclicBarrier start = new CyclicBarrier(2);
        Callable<Optional<StoredTask>> toRunning =
            () -> {
              start.await(10, TimeUnit.SECONDS);
              return store.update(task, task.withStatus(IN_PROGRESS).withAttempt(1), T0);
            };
        Callable<Optional<StoredTask>> toCancelled =
            () -> {
              start.await(10, TimeUnit.SECONDS);
              return store.update(task, task.withStatus(CANCELLED), T0);
            };
        Future<Optional<StoredTask>> a = pool.submit(toRunning);
        Future<Optional<StoredTask>> b = pool.submit(toCancelled);
        Optional<StoredTask> ra = a.get(30, TimeUnit.SECONDS);
        Optional<StoredTask> rb = b.get(30, TimeUnit.SECONDS);

        assertThat(ra.isPresent() ^ rb.isPresent())
            .as("round %d: exactly one wins", round)
            .isTrue();
        StoredTask winner = ra.orElseGet(rb::orElseThrow);
        assertThat(store.find(task.id())).contains(winner);
        assertThat(winner.version()).isEqualTo(1);
        assertThat(queries.history(task.id())).hasSize(2);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- owner

  @Test
  void theOwnerIsStoredAtInsertAndMovedByUpdatesAloneOrInABatch() {
    StoredTask task =
        StoredTask.queued(UUID.randomUUID(), TYPE, "{}", "default", null, T0, null, T0)
            .withOwner("node-a");
    store.insert(task);
    StoredTask stored = store.find(task.id()).orElseThrow();
    assertThat(stored.owner()).isEqualTo("node-a");
    assertThat(store.findDue(T0, null, 10))
        .filteredOn(d -> d.id().equals(task.id()))
        .extracting(DueTask::owner)
        .containsExactly("node-a");

    StoredTask claimed =
        store
            .update(
                stored,
                stored.withStatus(TaskStatus.IN_PROGRESS).withAttempt(1).withOwner("node-b"),
                T0)
            .orElseThrow();
    assertThat(claimed.owner()).isEqualTo("node-b");
    assertThat(store.find(task.id()).orElseThrow().owner()).isEqualTo("node-b");

    StoredTask requeued =
        store
            .writeAll(
                List.of(
                    new TaskWrite.Update(
                        claimed, claimed.withStatus(TaskStatus.QUEUED).withOwner(null), T0)))
            .get(0)
            .orElseThrow();
    assertThat(requeued.owner()).isNull();
    assertThat(store.find(task.id()).orElseThrow()).isEqualTo(requeued);
  }

  @Test
  void orphansAreTheTasksOfAStatusWithoutAnOwnerOrOwnedByNoLiveInstanceInIdOrder() {
    List<StoredTask> tasks = new ArrayList<>();
    for (String owner : new String[] {"a", "b", null, "c", "a", "dead"}) {
      StoredTask task =
          StoredTask.queued(UUID.randomUUID(), TYPE, "{}", "default", null, T0, null, T0)
              .withOwner(owner);
      store.insert(task);
      tasks.add(task);
    }
    StoredTask running = store.find(tasks.get(5).id()).orElseThrow();
    store.update(running, running.withStatus(IN_PROGRESS).withAttempt(1), T0);
    List<UUID> queuedOrphans =
        tasks.subList(2, 4).stream().map(StoredTask::id).sorted(UUID_ORDER).toList();

    List<StoredTask> first = queries.findOrphans(QUEUED, Set.of("a", "b"), null, 1);
    List<StoredTask> rest = queries.findOrphans(QUEUED, Set.of("a", "b"), first.get(0).id(), 10);

    assertThat(first).extracting(StoredTask::id).containsExactly(queuedOrphans.get(0));
    assertThat(rest).extracting(StoredTask::id).containsExactly(queuedOrphans.get(1));
    assertThat(queries.findOrphans(IN_PROGRESS, Set.of("a", "b"), null, 10))
        .extracting(StoredTask::owner)
        .containsExactly("dead");
    assertThat(queries.findOrphans(IN_PROGRESS, Set.of("dead"), null, 10)).isEmpty();
    assertThat(queries.findOrphans(QUEUED, Set.of(), null, 10)).hasSize(5);

    List<UUID> ofA =
        List.of(tasks.get(0).id(), tasks.get(4).id()).stream().sorted(UUID_ORDER).toList();
    List<StoredTask> aFirst = queries.findOwnedBy(QUEUED, Set.of("a"), null, 1);
    assertThat(aFirst).extracting(StoredTask::id).containsExactly(ofA.get(0));
    assertThat(queries.findOwnedBy(QUEUED, Set.of("a"), aFirst.get(0).id(), 10))
        .extracting(StoredTask::id)
        .containsExactly(ofA.get(1));
    assertThat(queries.findOwnedBy(IN_PROGRESS, Set.of("dead", "a"), null, 10))
        .extracting(StoredTask::id)
        .containsExactly(tasks.get(5).id());
    assertThat(queries.findOwnedBy(QUEUED, Set.of(), null, 10)).isEmpty();
  }

  @Test
  void aFilterTakesTheTasksMatchingEachOfItsConditionsInIdOrder() {
    List<StoredTask> ended = new ArrayList<>();
    String[][] rows = {
      // type, rate key, status, error, ended (seconds after T0)
      {TYPE, "acme", "FAILED", "java.io.IOException: 100% down_now", "10"},
      {TYPE, "acme", "FAILED", "java.io.IOException: 100 down", "20"},
      {TYPE, "other", "CANCELLED", "Cancelled by admin", "30"},
      {TYPE + "B", "acme", "FAILED", "java.io.IOException: 100% down_now", "40"},
      {TYPE, "acme", "COMPLETED", null, "50"},
    };
    for (String[] row : rows) {
      StoredTask task =
          StoredTask.queued(UUID.randomUUID(), row[0], "{}", "default", null, T0, null, T0)
              .withRateKey(row[1]);
      store.insert(task);
      StoredTask stored = store.find(task.id()).orElseThrow();
      store.update(
          stored,
          stored.withStatus(TaskStatus.valueOf(row[2])).withLastError(row[3]),
          T0.plusSeconds(Long.parseLong(row[4])));
      ended.add(task);
    }
    StoredTask queued =
        StoredTask.queued(UUID.randomUUID(), TYPE, "{}", "default", null, T0, null, T0);
    store.insert(queued);
    TaskFilter failedOrCancelled = TaskFilter.of(EnumSet.of(FAILED, CANCELLED));

    assertThat(queries.count(failedOrCancelled)).isEqualTo(4);
    List<StoredTask> first = queries.find(failedOrCancelled, null, 3);
    List<StoredTask> rest = queries.find(failedOrCancelled, first.get(2).id(), 3);
    assertThat(first).extracting(StoredTask::id).isSortedAccordingTo(UUID_ORDER);
    assertThat(concat(first, rest))
        .extracting(StoredTask::id)
        .containsExactlyInAnyOrderElementsOf(ids(ended.subList(0, 4)));
    assertThat(rest).hasSize(1);
    TaskFilter failed = TaskFilter.of(EnumSet.of(FAILED));
    assertThat(queries.count(failed.withType(TYPE))).as("type").isEqualTo(2);
    assertThat(
            queries.count(
                new TaskFilter(
                    failed.statuses(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of("acme"),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty())))
        .as("rate key")
        .isEqualTo(3);
    assertThat(
            queries.count(
                new TaskFilter(
                    failed.statuses(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of("100% down_"),
                    Optional.empty(),
                    Optional.empty())))
        .as("error text")
        .isEqualTo(2);
    assertThat(
            queries.count(
                new TaskFilter(
                    failed.statuses(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of(T0.plusSeconds(20)))))
        .as("ended since")
        .isEqualTo(2);
    // every condition at once; % and _ in the text are themselves, not patterns
    TaskFilter narrow =
        new TaskFilter(
            EnumSet.of(FAILED),
            Optional.of(TYPE),
            Optional.of("default"),
            Optional.of("acme"),
            Optional.of("100% down_"),
            Optional.of(T0.plusSeconds(30)),
            Optional.of(T0.plusSeconds(10)));
    assertThat(queries.find(narrow, null, 10))
        .extracting(StoredTask::id)
        .containsExactly(ended.get(0).id());
    assertThat(queries.count(narrow)).isEqualTo(1);
    assertThat(queries.count(failedOrCancelled.withChangedBefore(T0.plusSeconds(20))))
        .as("ended before, not at, the instant")
        .isEqualTo(1);
    assertThat(queries.count(failedOrCancelled.withType(TYPE + "B"))).isEqualTo(1);
    assertThat(queries.find(TaskFilter.of(EnumSet.of(QUEUED)), null, 10))
        .extracting(StoredTask::id)
        .containsExactly(queued.id());
  }

  @Test
  void pruningDeletesTheEndedTasksAFilterTakesFirstEndedFirstWithTheirAuditRows() {
    List<StoredTask> completed = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      StoredTask task =
          StoredTask.queued(UUID.randomUUID(), TYPE, "{}", "default", null, T0, null, T0);
      store.insert(task);
      StoredTask running =
          store.update(task, task.withStatus(IN_PROGRESS).withAttempt(1), T0).orElseThrow();
      // ended 50, 40, 30, 20, 10 seconds after T0: the last inserted ended first
      store.update(running, running.withStatus(COMPLETED), T0.plusSeconds(50 - 10 * i));
      completed.add(task);
    }
    StoredTask queued =
        StoredTask.queued(UUID.randomUUID(), TYPE, "{}", "default", null, T0, null, T0);
    store.insert(queued);
    StoredTask failed =
        StoredTask.queued(UUID.randomUUID(), TYPE, "{}", "default", null, T0, null, T0);
    store.insert(failed);
    store.update(failed, failed.withStatus(FAILED).withLastError("boom"), T0.plusSeconds(5));
    TaskFilter old = TaskFilter.of(EnumSet.of(COMPLETED)).withChangedBefore(T0.plusSeconds(45));

    assertThat(pruning.delete(old, 2, true)).isEqualTo(2);

    // the two that ended first (10 and 20 s) are gone, with every audit row of theirs
    for (StoredTask gone : completed.subList(3, 5)) {
      assertThat(store.find(gone.id())).isEmpty();
      assertThat(queries.history(gone.id())).isEmpty();
    }
    assertThat(queries.history(completed.get(2).id())).hasSize(3);
    assertThat(pruning.delete(old, 10, false)).as("30 and 40 s; not 50 s").isEqualTo(2);
    assertThat(store.find(completed.get(0).id())).isPresent();
    assertThat(pruning.delete(old, 10, true)).isZero();
    assertThat(store.find(queued.id())).as("live: never taken").isPresent();
    assertThat(store.find(failed.id())).as("another status").isPresent();
    assertThat(queries.history(failed.id())).hasSize(2);
    assertThatThrownBy(() -> pruning.delete(TaskFilter.of(EnumSet.of(QUEUED, FAILED)), 10, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only ended tasks are deleted, not QUEUED ones");
    assertThat(store.find(queued.id())).isPresent();
  }

  private static List<StoredTask> concat(List<StoredTask> a, List<StoredTask> b) {
    List<StoredTask> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static List<UUID> ids(List<StoredTask> tasks) {
    return tasks.stream().map(StoredTask::id).toList();
  }

  /** UUIDs in the order of their string form, as the store keeps ids. */
  static final java.util.Comparator<UUID> UUID_ORDER =
      java.util.Comparator.comparing(UUID::toString);

  @Test
  void anOwnerTooLongForItsColumnIsRefusedAndNothingIsStored() {
    StoredTask task =
        StoredTask.queued(UUID.randomUUID(), TYPE, "{}", "default", null, T0, null, T0)
            .withOwner("n".repeat(65));

    assertThatThrownBy(() -> store.insert(task))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("owner must be at most 64 characters, was 65");
    assertThat(store.find(task.id())).isEmpty();
  }

  // ---- writeAll

  @Test
  void writeAllAppliesWritesInOrderAndAnswersEach() {
    StoredTask a = queued("a", T0, T0);
    StoredTask b = queued(null, T0, T0);
    StoredTask existing = queued(null, T0, T0);
    store.insert(existing);
    StoredTask claimedA = a.withStatus(IN_PROGRESS).withAttempt(1);
    StoredTask claimedA1 =
        new StoredTask(
            a.id(),
            a.type(),
            a.payload(),
            IN_PROGRESS,
            a.queue(),
            a.taskKey(),
            micros(a.scheduledAt()),
            1,
            null,
            null,
            0,
            micros(a.createdAt()),
            micros(T0.plusSeconds(1)),
            1,
            null,
            null,
            null);

    List<Optional<StoredTask>> results =
        store.writeAll(
            List.of(
                new TaskWrite.Insert(a),
                new TaskWrite.Insert(b),
                new TaskWrite.Update(a, claimedA, T0.plusSeconds(1)),
                new TaskWrite.Update(
                    claimedA1,
                    claimedA1.withStatus(COMPLETED).withPayload("{\"to\":\"b@example.com\"}"),
                    T0.plusSeconds(2)),
                new TaskWrite.Update(existing, existing.withStatus(CANCELLED), T0.plusSeconds(3))));

    assertThat(results).hasSize(5).allMatch(Optional::isPresent);
    assertThat(results.get(0).orElseThrow().version()).isZero();
    assertThat(results.get(2).orElseThrow()).isEqualTo(claimedA1);
    StoredTask done = store.find(a.id()).orElseThrow();
    assertThat(done).isEqualTo(results.get(3).orElseThrow());
    assertThat(done.status()).isEqualTo(COMPLETED);
    assertThat(done.version()).isEqualTo(2);
    assertThat(done.payload()).isEqualTo("{\"to\":\"b@example.com\"}");
    assertThat(store.find(b.id()).orElseThrow().status()).isEqualTo(QUEUED);
    assertThat(store.find(existing.id()).orElseThrow().status()).isEqualTo(CANCELLED);
    assertThat(queries.history(a.id()))
        .extracting(TaskAudit::to)
        .containsExactly(QUEUED, IN_PROGRESS, COMPLETED);
  }

  @Test
  void aLostRaceInABatchIsEmptyAndDoesNotStopTheOthers() {
    StoredTask raced = queued(null, T0, T0);
    StoredTask other = queued(null, T0, T0);
    store.insert(raced);
    store.insert(other);
    store.update(raced, raced.withStatus(IN_PROGRESS), T0.plusSeconds(1)).orElseThrow();

    List<Optional<StoredTask>> results =
        store.writeAll(
            List.of(
                new TaskWrite.Update(raced, raced.withStatus(CANCELLED), T0.plusSeconds(2)),
                new TaskWrite.Update(other, other.withStatus(CANCELLED), T0.plusSeconds(2))));

    assertThat(results.get(0)).isEmpty();
    assertThat(results.get(1)).isPresent();
    assertThat(store.find(raced.id()).orElseThrow().status()).isEqualTo(IN_PROGRESS);
    assertThat(store.find(other.id()).orElseThrow().status()).isEqualTo(CANCELLED);
    assertThat(queries.history(raced.id()))
        .extracting(TaskAudit::to)
        .containsExactly(QUEUED, IN_PROGRESS);
  }

  @Test
  void anInvalidWriteFailsTheBatchAndNothingIsApplied() {
    StoredTask fine = queued(null, T0, T0);
    StoredTask completed = inStatus(COMPLETED, T0);
    store.insert(completed);

    assertThatThrownBy(
            () ->
                store.writeAll(
                    List.of(
                        new TaskWrite.Insert(fine),
                        new TaskWrite.Update(completed, completed.withStatus(QUEUED), T0))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(completed.id().toString())
        .hasMessageContaining("COMPLETED is terminal");
    assertThat(store.find(fine.id())).isEmpty();
  }

  @Test
  void aDatabaseErrorRollsBackTheWholeBatch() {
    StoredTask first = queued(null, T0, T0);
    StoredTask duplicate = queued(null, T0, T0);
    store.insert(duplicate);

    assertThatThrownBy(
            () ->
                store.writeAll(
                    List.of(new TaskWrite.Insert(first), new TaskWrite.Insert(duplicate))))
        .isInstanceOf(jakarta.persistence.PersistenceException.class)
        .hasMessageContaining("2 task write(s) failed");
    assertThat(store.find(first.id())).isEmpty();
    assertThat(queries.history(first.id())).isEmpty();
  }

  @Test
  void aLargeMixedBatchKeepsEveryRowAndAuditRow() {
    List<StoredTask> tasks = new ArrayList<>();
    List<TaskWrite> inserts = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      StoredTask task = queued(null, T0, T0);
      tasks.add(task);
      inserts.add(new TaskWrite.Insert(task));
    }
    store.writeAll(inserts);
    List<TaskWrite> claims = new ArrayList<>();
    for (StoredTask task : tasks) {
      claims.add(new TaskWrite.Update(task, task.withStatus(IN_PROGRESS), T0.plusSeconds(1)));
    }

    List<Optional<StoredTask>> results = store.writeAll(claims);

    assertThat(results).hasSize(300).allMatch(Optional::isPresent);
    assertThat(queries.findByStatus(EnumSet.of(IN_PROGRESS), 1000)).hasSize(300);
    assertThat(queries.history(tasks.get(299).id())).hasSize(2);
    assertThat(store.writeAll(List.of())).isEmpty();
  }

  // ---- audit

  @Test
  void fullAuditRecordsTheInsertAndEveryStatusChange() {
    JpaTaskStore full = new JpaTaskStore(tx, AuditLevel.FULL);
    StoredTask t = queued(null, T0, T0);
    full.insert(t);
    StoredTask v1 = full.update(t, t.withScheduledAt(T0.plusSeconds(9)), T0).orElseThrow();
    StoredTask v2 = full.update(v1, v1.withStatus(IN_PROGRESS).withAttempt(1), T0).orElseThrow();
    StoredTask v3 =
        full.update(v2, v2.withStatus(QUEUED).withLastError("IOException: reset"), T0)
            .orElseThrow();
    StoredTask v4 = full.update(v3, v3.withStatus(IN_PROGRESS).withAttempt(2), T0).orElseThrow();
    full.update(v4, v4.withStatus(FAILED), T0.plusSeconds(1));

    Instant at = micros(T0);
    assertThat(queries.history(t.id()))
        .containsExactly(
            new TaskAudit(t.id(), null, QUEUED, at, 0, null),
            new TaskAudit(t.id(), QUEUED, IN_PROGRESS, at, 1, null),
            new TaskAudit(t.id(), IN_PROGRESS, QUEUED, at, 1, "IOException: reset"),
            new TaskAudit(t.id(), QUEUED, IN_PROGRESS, at, 2, null),
            new TaskAudit(
                t.id(), IN_PROGRESS, FAILED, micros(T0.plusSeconds(1)), 2, "IOException: reset"));
  }

  @Test
  void minimalAuditRecordsOnlyTheMoveIntoATerminalStatus() {
    JpaTaskStore minimal = new JpaTaskStore(tx, AuditLevel.MINIMAL);
    StoredTask t = queued(null, T0, T0);
    minimal.insert(t);
    StoredTask v1 = minimal.update(t, t.withStatus(IN_PROGRESS), T0).orElseThrow();
    StoredTask v2 = minimal.update(v1, v1.withStatus(QUEUED), T0).orElseThrow();
    StoredTask v3 = minimal.update(v2, v2.withStatus(IN_PROGRESS), T0).orElseThrow();
    minimal.update(v3, v3.withStatus(COMPLETED), T0.plusSeconds(3));

    assertThat(queries.history(t.id()))
        .containsExactly(
            new TaskAudit(t.id(), IN_PROGRESS, COMPLETED, micros(T0.plusSeconds(3)), 0, null));
  }

  @Test
  void noAuditRecordsNothing() {
    JpaTaskStore none = new JpaTaskStore(tx, AuditLevel.NONE);
    StoredTask t = queued(null, T0, T0);
    none.insert(t);
    StoredTask v1 = none.update(t, t.withStatus(IN_PROGRESS), T0).orElseThrow();
    none.update(v1, v1.withStatus(FAILED).withLastError("boom"), T0);

    assertThat(queries.history(t.id())).isEmpty();
    assertThat(none.find(t.id()).orElseThrow().status()).isEqualTo(FAILED);
  }

  @Test
  void notesOfAParkedTaskJoinItsHistoryInOrderWhereEveryChangeIsRecorded() {
    JpaTaskStore full = new JpaTaskStore(tx, AuditLevel.FULL);
    StoredTask t = queued(null, T0, T0);
    full.insert(t);
    full.note(
        List.of(
            new io.taskgate.store.TaskNote(
                t.id(), t.version(), T0.plusSeconds(1), 0, "Parked until a slot")));
    full.update(
        t,
        t.withStatus(CANCELLED).withLastError("Cancelled by admin on the admin page"),
        T0.plusSeconds(2));

    assertThat(queries.history(t.id()))
        .containsExactly(
            new TaskAudit(t.id(), null, QUEUED, micros(T0), 0, null),
            new TaskAudit(
                t.id(), QUEUED, QUEUED, micros(T0.plusSeconds(1)), 0, "Parked until a slot"),
            new TaskAudit(
                t.id(),
                QUEUED,
                CANCELLED,
                micros(T0.plusSeconds(2)),
                0,
                "Cancelled by admin on the admin page"));

    StoredTask other = queued(null, T0, T0);
    JpaTaskStore minimal = new JpaTaskStore(tx, AuditLevel.MINIMAL);
    minimal.insert(other);
    minimal.note(
        List.of(new io.taskgate.store.TaskNote(other.id(), other.version(), T0, 0, "Parked")));
    assertThat(queries.history(other.id())).as("not recorded at MINIMAL").isEmpty();
  }

  @Test
  void aQueryListsNewestOldestOrSoonestDueFirst() {
    StoredTask first = queued(null, T0.plusSeconds(30), T0);
    StoredTask second = queued(null, T0.plusSeconds(10), T0.plusSeconds(1));
    StoredTask third = queued(null, T0.plusSeconds(20), T0.plusSeconds(2));
    for (StoredTask t : List.of(first, second, third)) {
      store.insert(t);
    }

    assertThat(ordered(TaskQuery.Order.NEWEST))
        .containsExactly(third.id(), second.id(), first.id());
    assertThat(ordered(TaskQuery.Order.OLDEST))
        .containsExactly(first.id(), second.id(), third.id());
    assertThat(ordered(TaskQuery.Order.DUE)).containsExactly(second.id(), third.id(), first.id());
  }

  private List<UUID> ordered(TaskQuery.Order order) {
    return queries
        .query(
            new TaskQuery(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                order,
                0,
                10))
        .tasks()
        .stream()
        .map(StoredTask::id)
        .toList();
  }

  @Test
  void aTaskKeepsItsRateLimitKeyAndIsFoundByIt() {
    StoredTask acme = queued(null, T0, T0).withRateKey("tenant acme/1");
    StoredTask globex = queued(null, T0, T0.plusSeconds(1)).withRateKey("globex");
    StoredTask none = queued(null, T0, T0.plusSeconds(2));
    StoredTask tooLong = queued(null, T0, T0.plusSeconds(3)).withRateKey("k".repeat(1025));
    store.writeAll(
        List.of(
            new TaskWrite.Insert(acme),
            new TaskWrite.Insert(globex),
            new TaskWrite.Insert(none),
            new TaskWrite.Insert(tooLong)));
    StoredTask moved = store.update(acme, acme.withStatus(IN_PROGRESS), T0).orElseThrow();

    assertThat(moved.rateKey()).isEqualTo("tenant acme/1");
    assertThat(store.find(acme.id()).orElseThrow().rateKey()).isEqualTo("tenant acme/1");
    assertThat(store.find(none.id()).orElseThrow().rateKey()).isNull();
    assertThat(store.find(tooLong.id()).orElseThrow().rateKey()).as("longer than kept").isNull();
    TaskPage ofAcme =
        queries.query(
            new TaskQuery(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of("tenant acme/1"),
                0,
                10));
    assertThat(ofAcme.tasks()).extracting(StoredTask::id).containsExactly(acme.id());
    assertThat(ofAcme.total()).isEqualTo(1);
    // a new payload may bring a new key
    StoredTask replaced =
        store.update(globex, globex.withPayload("{}").withRateKey("initech"), T0).orElseThrow();
    assertThat(store.find(replaced.id()).orElseThrow().rateKey()).isEqualTo("initech");
  }

  @Test
  void aTaskKeepsTheTraceContextItWasStoredWithThroughItsUpdates() {
    String parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    StoredTask traced = queued(null, T0, T0).withTraceParent(parent);
    StoredTask plain = queued(null, T0, T0.plusSeconds(1));
    StoredTask tooLong = queued(null, T0, T0.plusSeconds(2)).withTraceParent("t".repeat(129));
    store.insert(traced);
    store.writeAll(List.of(new TaskWrite.Insert(plain), new TaskWrite.Insert(tooLong)));

    StoredTask running = store.update(traced, traced.withStatus(IN_PROGRESS), T0).orElseThrow();
    // a copy that lost it (built anew) does not erase it: no update writes the column
    StoredTask back =
        store.update(running, running.withStatus(QUEUED).withTraceParent(null), T0).orElseThrow();
    StoredTask newPayload = store.update(back, back.withPayload("{\"a\":1}"), T0).orElseThrow();

    assertThat(running.traceParent()).isEqualTo(parent);
    assertThat(back.traceParent()).isEqualTo(parent);
    assertThat(newPayload.traceParent()).isEqualTo(parent);
    assertThat(store.find(traced.id()).orElseThrow().traceParent()).isEqualTo(parent);
    assertThat(store.findAll(List.of(traced.id(), plain.id())))
        .extracting(StoredTask::traceParent)
        .containsExactlyInAnyOrder(parent, null);
    assertThat(store.find(tooLong.id()).orElseThrow().traceParent()).as("too long").isNull();
  }

  @Test
  void tasksAreFoundByAPatternOfTheirLastError() {
    StoredTask horizon =
        queued(null, T0, T0)
            .withStatus(FAILED)
            .withLastError("Rejected: reason=BEYOND_HORIZON key=a 100% used");
    StoredTask discarded =
        queued(null, T0, T0.plusSeconds(1))
            .withStatus(FAILED)
            .withLastError("Rejected: reason=DISCARDED key=a");
    StoredTask none = queued(null, T0, T0.plusSeconds(2)).withStatus(FAILED);
    for (StoredTask t : List.of(horizon, discarded, none)) {
      store.insert(t);
    }

    assertThat(withError("Rejected: %reason=BEYOND_HORIZON key=%")).containsExactly(horizon.id());
    assertThat(withError("Rejected:%")).containsExactly(discarded.id(), horizon.id());
    assertThat(withError("reason=%")).as("the pattern covers the whole text").isEmpty();
    StoredTask typed =
        queued(null, T0, T0.plusSeconds(3))
            .withStatus(FAILED)
            .withLastError("Rejected " + TYPE + ": reason=DISCARDED key=" + TYPE + ": x");
    store.insert(typed);
    assertThat(withError("Rejected {type}: reason=DISCARDED key=%"))
        .as("{type}: the task's own type")
        .containsExactly(typed.id());
    assertThat(withError("Rejected %: reason=DISCARDED key={type}: x")).containsExactly(typed.id());
    assertThat(withError("Rejected {type}: reason=DISCARDED key={type}")).isEmpty();
  }

  private List<UUID> withError(String pattern) {
    return queries
        .query(
            new TaskQuery(
                Optional.of(FAILED),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of(pattern),
                TaskQuery.Order.NEWEST,
                0,
                10))
        .tasks()
        .stream()
        .map(StoredTask::id)
        .toList();
  }

  @Test
  void historyIsOldestFirstAndOnlyOfItsTask() {
    StoredTask a = queued(null, T0, T0.plusSeconds(10));
    StoredTask b = queued(null, T0, T0);
    store.insert(a);
    store.insert(b);
    StoredTask a1 = store.update(a, a.withStatus(IN_PROGRESS), T0.plusSeconds(20)).orElseThrow();
    store.update(b, b.withStatus(CANCELLED), T0.plusSeconds(1));
    store.update(a1, a1.withStatus(COMPLETED), T0.plusSeconds(30));

    assertThat(queries.history(a.id()))
        .extracting(TaskAudit::to, TaskAudit::at)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(QUEUED, micros(T0.plusSeconds(10))),
            org.assertj.core.groups.Tuple.tuple(IN_PROGRESS, micros(T0.plusSeconds(20))),
            org.assertj.core.groups.Tuple.tuple(COMPLETED, micros(T0.plusSeconds(30))));
    assertThat(queries.history(b.id()))
        .extracting(TaskAudit::to)
        .containsExactly(QUEUED, CANCELLED);
  }

  // ---- findByStatus and query

  @Test
  void findByStatusIsOldestScheduledFirstAndLimited() {
    List<StoredTask> due = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      StoredTask task = queued(null, T0.plus(Duration.ofMinutes(10 - i)), T0.plusSeconds(i));
      store.insert(task);
      due.add(task);
    }
    StoredTask running = queued(null, T0.minusSeconds(3600), T0);
    store.insert(running);
    store.update(running, running.withStatus(IN_PROGRESS), T0);
    store.insert(inStatus(COMPLETED, T0.minusSeconds(7200)));

    assertThat(queries.findByStatus(Set.of(QUEUED), 4))
        .extracting(StoredTask::id)
        .containsExactly(due.get(5).id(), due.get(4).id(), due.get(3).id(), due.get(2).id());
    assertThat(queries.findByStatus(EnumSet.of(QUEUED, IN_PROGRESS), 2))
        .extracting(StoredTask::id)
        .containsExactly(running.id(), due.get(5).id());
    assertThat(queries.findByStatus(Set.of(CANCELLED), 10)).isEmpty();
    assertThat(queries.findByStatus(Set.of(), 10)).isEmpty();
    assertThat(queries.findByStatus(Set.of(QUEUED), 0)).isEmpty();
    assertThatThrownBy(() -> queries.findByStatus(Set.of(QUEUED), -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("max must not be negative, was -1");
  }

  @Test
  void findAllReadsTheExistingOnesOfABatchAsFindDoes() {
    StoredTask one = queued("find-all-1", T0, T0);
    StoredTask two = queued("find-all-2", T0.plusSeconds(5), T0);
    store.insert(one);
    store.insert(two);
    store.update(two, two.withStatus(IN_PROGRESS), T0);
    UUID missing = UUID.randomUUID();

    List<StoredTask> found = store.findAll(List.of(one.id(), missing, two.id()));

    assertThat(found)
        .containsExactlyInAnyOrder(
            store.find(one.id()).orElseThrow(), store.find(two.id()).orElseThrow());
    assertThat(found).extracting(StoredTask::status).containsExactlyInAnyOrder(QUEUED, IN_PROGRESS);
    assertThat(store.findAll(List.of())).isEmpty();
    assertThat(store.findAll(List.of(missing))).isEmpty();
  }

  @Test
  void findDuePagesThroughTasksReleasedTogetherAndOnToLaterOnes() {
    List<StoredTask> due = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      // five released at one instant, as a batch dispatched for a given time is, then two later
      StoredTask task = queued(null, T0.minusSeconds(i < 5 ? 60 : 30 - i), T0);
      store.insert(task);
      due.add(task);
    }
    due.sort(
        java.util.Comparator.comparing(StoredTask::scheduledAt)
            .thenComparing(t -> t.id().toString()));

    List<UUID> seen = new ArrayList<>();
    List<Integer> pageSizes = pageThrough(after -> store.findDue(T0, after, 3), 3, seen);

    assertThat(pageSizes).containsExactly(3, 3, 1);
    assertThat(seen).containsExactlyElementsOf(due.stream().map(StoredTask::id).toList());
  }

  @Test
  void findDuePagesThroughQueuedDueTasksInOrderReadingNoPayload() {
    List<StoredTask> due = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      // two share a scheduledAt: the id breaks the tie
      StoredTask task = queued(null, T0.minusSeconds(i < 2 ? 100 : 50 - i), T0);
      store.insert(task);
      due.add(task);
    }
    store.insert(queued(null, T0.plusSeconds(1), T0)); // not due yet
    StoredTask running = queued(null, T0.minusSeconds(500), T0);
    store.insert(running);
    store.update(running, running.withStatus(IN_PROGRESS), T0);
    due.sort(
        java.util.Comparator.comparing(StoredTask::scheduledAt)
            .thenComparing(t -> t.id().toString()));

    List<DueTask> first = store.findDue(T0, null, 2);
    List<DueTask> second = store.findDue(T0, first.get(1), 2);
    List<DueTask> third = store.findDue(T0, second.get(1), 2);

    assertThat(first).extracting(DueTask::id).containsExactly(due.get(0).id(), due.get(1).id());
    assertThat(second).extracting(DueTask::id).containsExactly(due.get(2).id(), due.get(3).id());
    assertThat(third).extracting(DueTask::id).containsExactly(due.get(4).id());
    assertThat(first.get(0))
        .isEqualTo(
            new DueTask(due.get(0).id(), due.get(0).queue(), micros(due.get(0).scheduledAt())));
    assertThat(store.findDue(T0.minusSeconds(101), null, 10)).isEmpty();
    assertThat(store.findDue(T0, null, 0)).isEmpty();
    assertThatThrownBy(() -> store.findDue(T0, null, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("max must not be negative, was -1");
  }

  @Test
  void findQueuedPagesThroughEveryQueuedTaskDueOrNotAndNothingElse() {
    List<StoredTask> queued = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      // two share a scheduledAt; two are not due for a long time
      Instant at = i < 2 ? T0.minusSeconds(10) : T0.plus(Duration.ofDays(365L * i));
      StoredTask task = queued(null, at, T0);
      store.insert(task);
      queued.add(task);
    }
    StoredTask running = queued(null, T0.minusSeconds(500), T0);
    store.insert(running);
    store.update(running, running.withStatus(IN_PROGRESS), T0);
    queued.sort(
        java.util.Comparator.comparing(StoredTask::scheduledAt)
            .thenComparing(t -> t.id().toString()));

    List<UUID> seen = new ArrayList<>();
    List<Integer> pageSizes = pageThrough(after -> queries.findQueued(after, 2), 2, seen);

    assertThat(pageSizes).containsExactly(2, 2, 1);
    assertThat(seen).containsExactlyElementsOf(queued.stream().map(StoredTask::id).toList());
    assertThat(queries.findQueued(null, 0)).isEmpty();
    assertThatThrownBy(() -> queries.findQueued(null, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("max must not be negative, was -1");
  }

  /**
   * Reads pages of {@code size} until a short one (at most 5), each after the last row of the one
   * before; adds the rows' ids to {@code seen} and returns the page sizes.
   */
  private static List<Integer> pageThrough(
      java.util.function.Function<DueTask, List<DueTask>> read, int size, List<UUID> seen) {
    DueTask after = null;
    List<Integer> pageSizes = new ArrayList<>();
    for (int page = 0; page < 5; page++) {
      List<DueTask> rows = read.apply(after);
      pageSizes.add(rows.size());
      rows.forEach(row -> seen.add(row.id()));
      if (rows.size() < size) {
        break;
      }
      after = rows.get(rows.size() - 1);
    }
    return pageSizes;
  }

  @Test
  void countByQueueAndStatusCountsEveryPairInOneRead() {
    for (int i = 0; i < 3; i++) {
      store.insert(queued(null, T0, T0));
    }
    StoredTask cancelled = queued(null, T0, T0);
    store.insert(cancelled);
    store.update(cancelled, cancelled.withStatus(CANCELLED), T0);
    store.insert(
        StoredTask.queued(
            UUID.randomUUID(), "com.example.Report", "{}", "reports", null, T0, null, T0));

    assertThat(queries.countByQueueAndStatus())
        .isEqualTo(
            Map.of(
                "default", Map.of(QUEUED, 3L, CANCELLED, 1L),
                "reports", Map.of(QUEUED, 1L)));
  }

  @Test
  void oldestDueByQueueIsEachQueuesLongestWaitingQueuedTaskDueByNow() {
    store.insert(queued(null, T0.plusSeconds(10), T0));
    store.insert(queued(null, T0.plusSeconds(30), T0));
    store.insert(queued(null, T0.plusSeconds(90), T0)); // not due at +60 s
    StoredTask older = queued(null, T0, T0);
    store.insert(older);
    store.update(older, older.withStatus(CANCELLED), T0); // no longer queued
    store.insert(
        StoredTask.queued(
            UUID.randomUUID(),
            "com.example.Report",
            "{}",
            "reports",
            null,
            T0.plusSeconds(50),
            null,
            T0));

    assertThat(queries.oldestDueByQueue(T0.plusSeconds(60)))
        .isEqualTo( // the store keeps microseconds
            Map.of(
                "default", T0.plusSeconds(10).truncatedTo(ChronoUnit.MICROS),
                "reports", T0.plusSeconds(50).truncatedTo(ChronoUnit.MICROS)));
    assertThat(queries.oldestDueByQueue(T0.plusSeconds(5))).isEmpty();
  }

  @Test
  void anEmptyStoreCountsNothing() {
    assertThat(queries.countByQueueAndStatus()).isEmpty();
  }

  @Test
  void queryFiltersPagesNewestFirstAndCountsAll() {
    List<StoredTask> mail = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      StoredTask task = queued(null, T0, T0.plusSeconds(i));
      store.insert(task);
      mail.add(task);
    }
    StoredTask report =
        StoredTask.queued(
            UUID.randomUUID(),
            "com.example.Report",
            "{}",
            "reports",
            null,
            T0,
            null,
            T0.plusSeconds(100));
    store.insert(report);
    StoredTask cancelled = mail.get(6);
    store.update(cancelled, cancelled.withStatus(CANCELLED), T0);

    TaskPage all =
        queries.query(new TaskQuery(Optional.empty(), Optional.empty(), Optional.empty(), 0, 3));
    assertThat(all.total()).isEqualTo(8);
    assertThat(all.tasks())
        .extracting(StoredTask::id)
        .containsExactly(report.id(), mail.get(6).id(), mail.get(5).id());

    TaskQuery queuedMail =
        new TaskQuery(Optional.of(QUEUED), Optional.of(TYPE), Optional.of("default"), 1, 4);
    TaskPage second = queries.query(queuedMail);
    assertThat(second.total()).isEqualTo(6);
    assertThat(second.tasks())
        .extracting(StoredTask::id)
        .containsExactly(mail.get(1).id(), mail.get(0).id());

    assertThat(
            queries
                .query(
                    new TaskQuery(
                        Optional.of(CANCELLED), Optional.empty(), Optional.empty(), 0, 10))
                .tasks())
        .extracting(StoredTask::id)
        .containsExactly(cancelled.id());
    assertThat(
            queries
                .query(
                    new TaskQuery(
                        Optional.empty(), Optional.empty(), Optional.of("reports"), 0, 10))
                .tasks())
        .containsExactly(store.find(report.id()).orElseThrow());
    TaskPage beyond =
        queries.query(new TaskQuery(Optional.empty(), Optional.empty(), Optional.empty(), 5, 500));
    assertThat(beyond.tasks()).isEmpty();
    assertThat(beyond.total()).isEqualTo(8);
    TaskPage none =
        queries.query(
            new TaskQuery(Optional.of(FAILED), Optional.empty(), Optional.empty(), 0, 10));
    assertThat(none).isEqualTo(new TaskPage(List.of(), 0));
  }
}
