package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskFilter;
import io.taskgate.store.TaskPruning;
import io.taskgate.store.schema.UrlDataSource;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The store contract on PostgreSQL at {@value #SERVER} (user postgres, trust authentication), in a
 * schema of its own created for this class and dropped after it. PostgreSQL must be running: ./test
 * starts it; if it is not reachable this class fails, it does not skip.
 */
class PostgresTaskStoreTest extends TaskStoreContract {

  static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/test";
  static final String USER = "postgres";

  final String schema =
      "taskgate_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  @Override
  EntityManagerFactory openFactory() throws SQLException {
    execute("CREATE SCHEMA " + schema);
    UrlDataSource.migrate(SERVER + "?currentSchema=" + schema, USER);
    return Persistence.createEntityManagerFactory(
        TEST_UNIT,
        Map.of(
            "eclipselink.persistencexml",
            TEST_PERSISTENCE_XML,
            "jakarta.persistence.jdbc.driver",
            "org.postgresql.Driver",
            "jakarta.persistence.jdbc.url",
            SERVER + "?currentSchema=" + schema,
            "jakarta.persistence.jdbc.user",
            USER,
            "jakarta.persistence.jdbc.password",
            ""));
  }

  /** One instance prunes at a time: another one holding pruning's lock makes a batch give up. */
  @Test
  void pruningGivesUpWhileAnotherInstanceHoldsItsLock() throws SQLException {
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    StoredTask task =
        StoredTask.queued(UUID.randomUUID(), "a.Type", "{}", "default", null, t0, null, t0);
    store().insert(task);
    store().update(task, task.withStatus(TaskStatus.CANCELLED), t0);
    TaskFilter cancelled = TaskFilter.of(EnumSet.of(TaskStatus.CANCELLED));
    try (Connection other = DriverManager.getConnection(SERVER, USER, "");
        Statement s = other.createStatement()) {
      s.execute("SELECT pg_advisory_lock(" + JpaTaskPruning.LOCK_KEY + ")");

      assertThat(pruning.delete(cancelled, 10, true)).isEqualTo(TaskPruning.BUSY);
      assertThat(store().find(task.id())).isPresent();
      assertThat(pruning.delete(cancelled, 10, false))
          .as("a bulk delete takes no lock")
          .isEqualTo(1);
    }
  }

  @Override
  List<String> expectedColumnTypes() {
    return List.of("varchar(36)", "text(2147483647)", "timestamptz(35)", "varchar(2000)");
  }

  @Override
  void dropDatabase() throws SQLException {
    execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  static void execute(String sql) throws SQLException {
    Connection connection;
    try {
      connection = DriverManager.getConnection(SERVER, USER, "");
    } catch (SQLException e) {
      throw new IllegalStateException(
          "PostgreSQL is not reachable at "
              + SERVER
              + " as user "
              + USER
              + " ("
              + e.getMessage()
              + "). The store's PostgreSQL tests need it: start the local cluster"
              + " (e.g. `pg_ctlcluster 15 main start`; ./test does this) and create database"
              + " 'test'.",
          e);
    }
    try (connection;
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
