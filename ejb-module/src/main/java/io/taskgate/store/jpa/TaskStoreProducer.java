package io.taskgate.store.jpa;

import io.taskgate.core.task.AuditLevel;
import io.taskgate.store.BudgetStore;
import io.taskgate.store.GroupCommitTaskStore;
import io.taskgate.store.HistoryStore;
import io.taskgate.store.InstanceStore;
import io.taskgate.store.ListeningTaskStore;
import io.taskgate.store.PauseStore;
import io.taskgate.store.TaskPruning;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskStore;
import io.taskgate.store.TaskWriteListener;
import io.taskgate.store.ThrottlerStore;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Produces the application's {@link TaskStore}: the JPA store on the container's transactions, at
 * the audit level configured under {@value #AUDIT_LEVEL_KEY} (default FULL), behind a {@link
 * GroupCommitTaskStore} that commits the writes of concurrent callers together: {@value
 * #WRITERS_KEY} writer threads (default {@value #DEFAULT_WRITERS}; 0 commits every write on its
 * caller's thread, alone) and at most {@value #BATCH_SIZE_KEY} writes per transaction (default
 * {@value #DEFAULT_BATCH_SIZE}).
 */
@ApplicationScoped
public class TaskStoreProducer {
  private static final Logger LOG = Logger.getLogger(TaskStoreProducer.class.getName());

  /** The MicroProfile Config key of the audit level. */
  public static final String AUDIT_LEVEL_KEY = "taskgate.audit.level";

  /** The MicroProfile Config key of the number of writer threads. */
  public static final String WRITERS_KEY = "taskgate.store.writers";

  /** The MicroProfile Config key of the most writes committed in one transaction. */
  public static final String BATCH_SIZE_KEY = "taskgate.store.batch-size";

  static final int DEFAULT_WRITERS = 2;
  static final int DEFAULT_BATCH_SIZE = 200;

  @Inject JtaTransactor transactor;

  /** The schema, migrated or checked before any part of the store is made. */
  @Inject SchemaAtFirstUse schema;

  /** Told about every write once it is stored (the engine's task transitions), if there is one. */
  @Inject Instance<TaskWriteListener> listeners;

  @Resource ManagedThreadFactory threads;

  @Resource TransactionSynchronizationRegistry transactions;

  /**
   * The data source the persistence unit names: the store commits its own writes on it directly
   * ({@link JpaTaskStore#writingThrough}) once it has checked that it reaches the same database.
   */
  @Resource(lookup = "jdbc/__default")
  DataSource dataSource;

  @Inject
  @ConfigProperty(name = WRITERS_KEY, defaultValue = "" + DEFAULT_WRITERS)
  int writers;

  @Inject
  @ConfigProperty(name = BATCH_SIZE_KEY, defaultValue = "" + DEFAULT_BATCH_SIZE)
  int batchSize;

  @Inject
  @ConfigProperty(name = AUDIT_LEVEL_KEY, defaultValue = "FULL")
  String auditLevel;

  /** The read model, on the same transactions; reads need no group commit and no listeners. */
  @Produces
  @ApplicationScoped
  TaskQueries taskQueries() {
    schema.ensure();
    return new JpaTaskQueries(transactor);
  }

  /** Deletes ended tasks (retention, bulk delete), on the same transactions. */
  @Produces
  @ApplicationScoped
  TaskPruning taskPruning() {
    schema.ensure();
    return new JpaTaskPruning(transactor);
  }

  /** The instances sharing the database and their heartbeats, on the same transactions. */
  @Produces
  @ApplicationScoped
  InstanceStore instanceStore() {
    schema.ensure();
    return new JpaInstanceStore(transactor);
  }

  /** The definitions of semaphores and windows and their change log, on the same transactions. */
  @Produces
  @ApplicationScoped
  ThrottlerStore throttlerStore() {
    schema.ensure();
    return new JpaThrottlerStore(transactor);
  }

  /** The pauses in force, shared by the instances, on the same transactions. */
  @Produces
  @ApplicationScoped
  PauseStore pauseStore() {
    schema.ensure();
    return new JpaPauseStore(transactor);
  }

  /** The rate-limited keys' saved budgets, on the same transactions. */
  @Produces
  @ApplicationScoped
  BudgetStore budgetStore() {
    schema.ensure();
    return new JpaBudgetStore(transactor);
  }

  /** The per-minute history the instances share, on the same transactions. */
  @Produces
  @ApplicationScoped
  HistoryStore historyStore() {
    schema.ensure();
    return new JpaHistoryStore(transactor);
  }

  @Produces
  @ApplicationScoped
  TaskStore taskStore() {
    schema.ensure();
    boolean checkpoint = makeCommitsDurable();
    JpaTaskStore store = new JpaTaskStore(transactor, parseAuditLevel(auditLevel));
    if (checkpoint) {
      store.afterEachCommit(H2CommitDurability::checkpoint);
    }
    if (sameDatabase()) {
      store.writingThrough(dataSource);
    }
    checkAtLeast(WRITERS_KEY, writers, 0);
    checkAtLeast(BATCH_SIZE_KEY, batchSize, 1);
    TaskStore produced = writers == 0 ? store : grouped(store, checkpoint);
    return listeners.isResolvable() ? new ListeningTaskStore(produced, listeners.get()) : produced;
  }

  /** The group commit; on embedded H2 (a checkpoint per commit) the writers gather every write. */
  private TaskStore grouped(JpaTaskStore store, boolean checkpoint) {
    GroupCommitTaskStore grouped =
        new GroupCommitTaskStore(
            store,
            threads,
            writers,
            batchSize,
            () -> transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION);
    return checkpoint ? grouped.writersOnly() : grouped;
  }

  /**
   * On embedded H2, sets the database's write delay to 0 (see {@link H2CommitDurability}) before
   * the first task is stored, so that a dispatch that returned survives the process being killed.
   */
  private boolean makeCommitsDurable() {
    try {
      H2CommitDurability.Result result =
          transactor.inTransaction(
              em -> {
                try {
                  return H2CommitDurability.apply(em.unwrap(Connection.class));
                } catch (SQLException e) {
                  throw new IllegalStateException(e.getMessage(), e);
                }
              });
      if (result.changed()) {
        LOG.info(
            "Taskgate set the H2 database's WRITE_DELAY from "
                + result.before().getAsInt()
                + " ms to 0: every commit is written before it returns");
      }
      return H2CommitDurability.needsCheckpoint(result);
    } catch (RuntimeException e) {
      LOG.log(
          Level.SEVERE,
          "Taskgate could not set WRITE_DELAY 0 on the H2 database behind its persistence unit"
              + " (it needs an administrator login): commits of the last 500 ms may be lost if"
              + " the server is killed. Set it on the database as an administrator.",
          e);
      return false;
    }
  }

  /**
   * Whether {@link #dataSource} reaches the database of the persistence unit (same URL and user),
   * so that writes committed on it directly land where the unit reads. If not (the unit was pointed
   * elsewhere), every write goes through the container's transactions, as reads do.
   */
  private boolean sameDatabase() {
    if (dataSource == null) {
      return false;
    }
    try {
      String unit =
          transactor.inTransaction(
              em -> {
                try {
                  return identity(em.unwrap(Connection.class));
                } catch (SQLException e) {
                  throw new IllegalStateException(e.getMessage(), e);
                }
              });
      String direct;
      try (Connection connection = dataSource.getConnection()) {
        direct = identity(connection);
      }
      if (unit.equals(direct)) {
        return true;
      }
      LOG.info(
          "Taskgate's persistence unit reaches "
              + unit
              + " but jdbc/__default reaches "
              + direct
              + ": task writes go through the container's transactions");
    } catch (SQLException | RuntimeException e) {
      LOG.log(
          Level.INFO,
          "Taskgate could not compare jdbc/__default with its persistence unit's database: task"
              + " writes go through the container's transactions",
          e);
    }
    return false;
  }

  private static String identity(Connection connection) throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    return meta.getURL() + " as " + meta.getUserName();
  }

  void close(@Disposes TaskStore store) {
    TaskStore inner = store instanceof ListeningTaskStore listening ? listening.delegate() : store;
    if (inner instanceof GroupCommitTaskStore grouped) {
      grouped.close();
    }
  }

  static void checkAtLeast(String key, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(
          "Configuration " + key + " must be at least " + min + ", was " + value);
    }
  }

  /** The audit level {@code text} names, in any case; a clear error naming the key otherwise. */
  static AuditLevel parseAuditLevel(String text) {
    String name = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
    for (AuditLevel level : AuditLevel.values()) {
      if (level.name().equals(name)) {
        return level;
      }
    }
    throw new IllegalArgumentException(
        "Configuration "
            + AUDIT_LEVEL_KEY
            + " must be one of "
            + Arrays.toString(AuditLevel.values())
            + ", was '"
            + text
            + "'");
  }
}
