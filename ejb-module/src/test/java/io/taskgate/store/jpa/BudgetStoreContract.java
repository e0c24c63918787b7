package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.BudgetStore.TypedKey;
import io.taskgate.store.SavedBudget;
import io.taskgate.store.StoredTask;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The saved rate-limit budgets and the instances' marks, on a real database: H2, then PostgreSQL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class BudgetStoreContract {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  static final long N0 = T0.getEpochSecond() * 1_000_000_000L;

  private EntityManagerFactory factory;
  private Transactor tx;
  private JpaBudgetStore store;
  private JpaTaskStore tasks;

  abstract EntityManagerFactory openFactory() throws Exception;

  abstract void dropDatabase() throws Exception;

  @BeforeAll
  void open() throws Exception {
    factory = openFactory();
    tx = new ResourceLocalTransactor(factory);
    store = new JpaBudgetStore(tx);
    tasks = new JpaTaskStore(tx, io.taskgate.core.task.AuditLevel.NONE);
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
    tx.inTransaction(em -> em.createQuery("DELETE FROM RateBudgetEntity b").executeUpdate());
    tx.inTransaction(em -> em.createQuery("DELETE FROM BudgetMarkEntity m").executeUpdate());
    tx.inTransaction(em -> em.createQuery("DELETE FROM TaskEntity t").executeUpdate());
  }

  @Test
  void aSavedBudgetLoadsWhileItsTimeIsAheadAndNeverMovesBack() {
    store.save(
        List.of(
            new SavedBudget("a.Sync", "tenant-1", N0 + 500), new SavedBudget("a.Sync", "t2", N0)),
        "i1",
        T0);
    // a late save of an older time (another instance's) leaves the later one
    store.save(List.of(new SavedBudget("a.Sync", "tenant-1", N0 + 100)), "i2", T0.plusSeconds(1));

    assertThat(store.load(N0 - 1))
        .containsExactly(
            new SavedBudget("a.Sync", "t2", N0), new SavedBudget("a.Sync", "tenant-1", N0 + 500));
    assertThat(store.load(N0)).containsExactly(new SavedBudget("a.Sync", "tenant-1", N0 + 500));

    store.save(List.of(new SavedBudget("a.Sync", "tenant-1", N0 + 900)), "i1", T0.plusSeconds(2));
    assertThat(store.load(N0)).containsExactly(new SavedBudget("a.Sync", "tenant-1", N0 + 900));
  }

  @Test
  void theSameKeyInTwoScopesAndALongKeyAreRowsOfTheirOwn() {
    String longKey = "k".repeat(1024);
    store.save(
        List.of(
            new SavedBudget("a.Sync", "k", N0 + 1),
            new SavedBudget("b.Sync", "k", N0 + 2),
            new SavedBudget("a.Sync", longKey, N0 + 3)),
        "i1",
        T0);

    assertThat(store.load(N0))
        .containsExactlyInAnyOrder(
            new SavedBudget("a.Sync", "k", N0 + 1),
            new SavedBudget("b.Sync", "k", N0 + 2),
            new SavedBudget("a.Sync", longKey, N0 + 3));
  }

  @Test
  void eachInstanceHasOneMarkThatASaveMoves() {
    assertThat(store.marks()).isEmpty();
    assertThat(store.mark("i1")).isEmpty();

    store.save(List.of(), "i1", T0);
    store.save(List.of(), "i2", T0.plusSeconds(5));
    store.save(List.of(new SavedBudget("a.Sync", "k", N0)), "i1", T0.plusSeconds(9));

    assertThat(store.mark("i1")).contains(T0.plusSeconds(9));
    assertThat(store.marks()).hasSize(2).containsEntry("i2", T0.plusSeconds(5));
  }

  @Test
  void pruningDeletesTheBudgetsWhoseTimeHasPassed() {
    store.save(
        List.of(new SavedBudget("a.Sync", "old", N0 - 1), new SavedBudget("a.Sync", "new", N0)),
        "i1",
        T0);

    assertThat(store.prune(N0)).isEqualTo(1);
    assertThat(store.load(Long.MIN_VALUE)).containsExactly(new SavedBudget("a.Sync", "new", N0));
  }

  @Test
  void theKeysTouchedSinceAreThoseOfTheOwnersRowsChangedSinceAndOfItsTasksInProgress() {
    insert("a.Sync", "changed", TaskStatus.COMPLETED, T0.plusSeconds(1), "i1");
    insert("a.Sync", "changed", TaskStatus.QUEUED, T0.plusSeconds(2), "i1");
    insert("a.Sync", "pushed", TaskStatus.QUEUED, T0.plusSeconds(2), "i1");
    insert("a.Sync", "before", TaskStatus.COMPLETED, T0.minusSeconds(1), "i1");
    insert("a.Sync", "running", TaskStatus.IN_PROGRESS, T0.minusSeconds(60), "i1");
    insert("a.Sync", "elsewhere", TaskStatus.IN_PROGRESS, T0.minusSeconds(60), "i2");
    insert("a.Sync", "other", TaskStatus.COMPLETED, T0.plusSeconds(1), "i2");
    insert("b.Send", "at", TaskStatus.FAILED, T0, "i1");
    insert("b.Send", null, TaskStatus.COMPLETED, T0.plusSeconds(3), "i1");

    assertThat(store.keysTouchedSince("i1", T0))
        .containsExactlyInAnyOrder(
            new TypedKey("a.Sync", "changed"),
            new TypedKey("a.Sync", "pushed"),
            new TypedKey("a.Sync", "running"),
            new TypedKey("b.Send", "at"));
    assertThat(store.keysTouchedSince("i2", T0.plusSeconds(10)))
        .as("nothing of i2 changed since; its task in progress")
        .containsExactly(new TypedKey("a.Sync", "elsewhere"));
    assertThat(store.keysTouchedSince("i3", T0)).isEmpty();
  }

  private void insert(String type, String key, TaskStatus status, Instant at, String owner) {
    tasks.insert(
        new StoredTask(
            UUID.randomUUID(),
            type,
            "{}",
            status,
            "default",
            null,
            at,
            status == TaskStatus.QUEUED ? 0 : 1,
            null,
            null,
            0,
            at,
            at,
            0,
            owner,
            key,
            null));
  }
}
