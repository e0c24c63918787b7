package io.taskgate.store.jpa;

import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Runs the store's own writes on a connection of the persistence unit's data source, in a local
 * JDBC transaction, without the container's transaction manager or the persistence context: a batch
 * of task writes is plain JDBC statements anyway ({@link JdbcWrites}), and a writer thread of the
 * group commit is never in a transaction of the caller's, so the transaction manager's begin,
 * enlistment, synchronizations and commit, and the persistence context's unit of work, cost a
 * writer about as much as the statements themselves. What commits is the same: the statements of
 * one call in one transaction, committed or rolled back together.
 */
final class LocalCommits {

  /** Work on a connection in a transaction; what it throws rolls the transaction back. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** What to do on the same connection once a transaction has committed. */
  @FunctionalInterface
  interface AfterCommit {
    void run(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;

  /** Whether the data source is PostgreSQL; null until a connection has told. */
  private volatile Boolean postgres;

  LocalCommits(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /** Whether the database is PostgreSQL (asks it once). */
  boolean postgres() {
    Boolean known = postgres;
    if (known == null) {
      try (Connection connection = dataSource.getConnection()) {
        known = "PostgreSQL".equalsIgnoreCase(connection.getMetaData().getDatabaseProductName());
      } catch (SQLException e) {
        throw new PersistenceException(
            "Taskgate could not get a connection of its data source: " + e.getMessage(), e);
      }
      postgres = known;
    }
    return known;
  }

  /**
   * Runs {@code work}, one statement, in auto-commit mode: the database commits it on its own, in
   * the same round trip, or rolls it back if it fails. Then {@code after}, as {@link
   * #inTransaction} does.
   */
  <T> T autoCommitted(
      Work<T> work, AfterCommit after, java.util.function.Consumer<Exception> afterFailed) {
    try (Connection connection = dataSource.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      if (!autoCommit) {
        connection.setAutoCommit(true);
      }
      T result;
      try {
        result = work.run(connection);
      } finally {
        if (!autoCommit) {
          connection.setAutoCommit(false);
        }
      }
      runAfter(connection, after, afterFailed);
      return result;
    } catch (SQLException e) {
      throw new PersistenceException(e.getMessage(), e);
    }
  }

  /**
   * Runs {@code work} in a transaction of its own and commits it, then runs {@code after} on the
   * same connection (outside the transaction). A failure of {@code after} goes to {@code
   * afterFailed}, not to the caller: the transaction is committed by then, and the result stands.
   */
  <T> T inTransaction(
      Work<T> work, AfterCommit after, java.util.function.Consumer<Exception> afterFailed) {
    try (Connection connection = dataSource.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      if (autoCommit) {
        connection.setAutoCommit(false);
      }
      T result;
      try {
        result = work.run(connection);
        connection.commit();
      } catch (SQLException e) {
        rollBack(connection, e);
        throw new PersistenceException(e.getMessage(), e);
      } catch (RuntimeException | Error e) {
        rollBack(connection, e);
        throw e;
      } finally {
        if (autoCommit) {
          connection.setAutoCommit(true);
        }
      }
      runAfter(connection, after, afterFailed);
      return result;
    } catch (SQLException e) {
      throw new PersistenceException(
          "Taskgate could not get or release a connection of its data source: " + e.getMessage(),
          e);
    }
  }

  /** Runs {@code after} (if any) once the work is committed; a failure goes to {@code failed}. */
  private static void runAfter(
      Connection connection, AfterCommit after, java.util.function.Consumer<Exception> failed) {
    if (after == null) {
      return;
    }
    try {
      after.run(connection);
    } catch (SQLException | RuntimeException e) {
      failed.accept(e);
    }
  }

  private static void rollBack(Connection connection, Throwable cause) {
    try {
      connection.rollback();
    } catch (SQLException | RuntimeException rollbackFailure) {
      cause.addSuppressed(rollbackFailure);
    }
  }
}
