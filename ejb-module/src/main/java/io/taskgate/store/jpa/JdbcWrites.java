package io.taskgate.store.jpa;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import io.taskgate.store.TaskNote;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Applies prepared task writes on one JDBC connection, inside the caller's transaction, with as few
 * round trips as the order allows: consecutive writes of one kind (insert, update, update with a
 * new payload) go as one JDBC batch, and the audit rows of the writes that took effect follow as
 * one more. The SQL names the columns of {@link TaskEntity} and {@link TaskAuditEntity}.
 */
final class JdbcWrites {

  /**
   * One write, validated and normalized.
   *
   * @param stored the row as it will be after the write
   * @param expectedVersion the version an update compares against; -1 for an insert
   * @param payloadChanged whether an update writes the payload too
   * @param audit the audit row to add if the write takes effect, or null
   */
  record Prepared(
      StoredTask stored, long expectedVersion, boolean payloadChanged, TaskAudit audit) {
    boolean insert() {
      return expectedVersion < 0;
    }

    Kind kind() {
      return insert() ? Kind.INSERT : payloadChanged ? Kind.UPDATE_WITH_PAYLOAD : Kind.UPDATE;
    }
  }

  private enum Kind {
    INSERT(
        "INSERT INTO taskgate_task (id, type, payload, status, queue, task_key, scheduled_at,"
            + " attempt, last_error, recurrence, runs, created_at, updated_at, version,"
            + " owner_instance, rate_key, trace_parent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            + " ?, ?, ?, ?, ?, ?)"),
    UPDATE(
        "UPDATE taskgate_task SET status = ?, queue = ?, task_key = ?, scheduled_at = ?,"
            + " attempt = ?, last_error = ?, recurrence = ?, runs = ?, updated_at = ?,"
            + " version = ?, owner_instance = ? WHERE id = ? AND version = ?"),
    UPDATE_WITH_PAYLOAD(
        "UPDATE taskgate_task SET payload = ?, status = ?, queue = ?, task_key = ?,"
            + " scheduled_at = ?, attempt = ?, last_error = ?, recurrence = ?, runs = ?,"
            + " updated_at = ?, version = ?, owner_instance = ?, rate_key = ? WHERE id = ?"
            + " AND version = ?");

    final String sql;

    Kind(String sql) {
      this.sql = sql;
    }
  }

  private static final String INSERT_AUDIT =
      "INSERT INTO taskgate_task_audit (id, task_id, task_version, from_status, to_status, at,"
          + " attempt, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

  private JdbcWrites() {}

  /** Applies {@code writes} in order; result {@code i} is write {@code i}'s row, or empty. */
  static List<Optional<StoredTask>> apply(Connection connection, List<Prepared> writes) {
    try {
      boolean[] applied = runAll(connection, writes, false);
      List<Prepared> audited = new ArrayList<>();
      for (int i = 0; i < writes.size(); i++) {
        if (applied[i] && writes.get(i).audit() != null) {
          audited.add(writes.get(i));
        }
      }
      audit(connection, audited);
      return results(writes, applied);
    } catch (SQLException e) {
      throw failed(writes, e);
    }
  }

  /**
   * Runs {@code writes} in order, consecutive writes of one kind as one statement (a JDBC batch
   * when there are several); whether each took effect. {@code combined}: a write's statement adds
   * its audit row too ({@link #AUDIT_FROM_WRITTEN}), and the writes of one statement are alike in
   * having one or not.
   */
  private static boolean[] runAll(Connection connection, List<Prepared> writes, boolean combined)
      throws SQLException {
    boolean[] applied = new boolean[writes.size()];
    int start = 0;
    while (start < writes.size()) {
      Prepared first = writes.get(start);
      boolean audited = combined && first.audit() != null;
      int end = start + 1;
      while (end < writes.size()
          && writes.get(end).kind() == first.kind()
          && (!combined || (writes.get(end).audit() != null) == audited)) {
        end++;
      }
      run(connection, first.kind(), audited, writes, start, end, applied);
      start = end;
    }
    return applied;
  }

  /**
   * Runs writes {@code start} to {@code end} (exclusive), all of {@code kind}, as one statement.
   */
  private static void run(
      Connection connection,
      Kind kind,
      boolean audited,
      List<Prepared> writes,
      int start,
      int end,
      boolean[] applied)
      throws SQLException {
    String sql = audited ? "WITH w AS (" + kind.sql + AUDIT_FROM_WRITTEN : kind.sql;
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = start; i < end; i++) {
        int next = bind(statement, kind, writes.get(i));
        if (audited) {
          bindAudit(statement, next, writes.get(i).audit());
        }
        if (end - start == 1) {
          applied[i] = affected(statement.executeUpdate(), kind, writes.get(i));
          return;
        }
        statement.addBatch();
      }
      int[] counts = statement.executeBatch();
      if (counts.length != end - start) {
        throw new SQLException(
            "The driver reported " + counts.length + " counts for " + (end - start) + " rows");
      }
      for (int i = start; i < end; i++) {
        applied[i] = affected(counts[i - start], kind, writes.get(i));
      }
    }
  }

  /** Result {@code i}: write {@code i}'s row if it took effect, else empty. */
  private static List<Optional<StoredTask>> results(List<Prepared> writes, boolean[] applied) {
    List<Optional<StoredTask>> results = new ArrayList<>(writes.size());
    for (int i = 0; i < writes.size(); i++) {
      results.add(applied[i] ? Optional.of(writes.get(i).stored()) : Optional.empty());
    }
    return results;
  }

  private static PersistenceException failed(List<Prepared> writes, SQLException e) {
    return new PersistenceException(
        "Storing " + writes.size() + " task write(s) failed: " + e.getMessage(), e);
  }

  private static boolean affected(int count, Kind kind, Prepared write) throws SQLException {
    if (count == 1) {
      return true;
    }
    if (count == 0 && kind != Kind.INSERT) {
      return false; // lost the compare-and-set
    }
    if (count == Statement.SUCCESS_NO_INFO && kind == Kind.INSERT) {
      return true; // an insert either happened or threw
    }
    throw new SQLException(
        "Unexpected row count " + count + " for " + kind + " of task " + write.stored().id());
  }

  /** Binds {@code write}'s row from parameter 1; returns the next parameter's index. */
  private static int bind(PreparedStatement statement, Kind kind, Prepared write)
      throws SQLException {
    StoredTask task = write.stored();
    int i = 1;
    if (kind == Kind.INSERT) {
      statement.setString(i++, task.id().toString());
      statement.setString(i++, task.type());
      statement.setString(i++, task.payload());
    } else if (kind == Kind.UPDATE_WITH_PAYLOAD) {
      statement.setString(i++, task.payload());
    }
    statement.setString(i++, task.status().name());
    statement.setString(i++, task.queue());
    statement.setString(i++, task.taskKey());
    statement.setObject(i++, TaskEntity.column(task.scheduledAt()));
    statement.setInt(i++, task.attempt());
    statement.setString(i++, task.lastError());
    statement.setString(i++, task.recurrence());
    statement.setLong(i++, task.runs());
    if (kind == Kind.INSERT) {
      statement.setObject(i++, TaskEntity.column(task.createdAt()));
    }
    statement.setObject(i++, TaskEntity.column(task.updatedAt()));
    statement.setLong(i++, task.version());
    statement.setString(i++, task.owner());
    if (kind != Kind.UPDATE) {
      statement.setString(i++, task.rateKey());
    }
    if (kind == Kind.INSERT) {
      statement.setString(i++, task.traceParent());
    }
    if (kind != Kind.INSERT) {
      statement.setString(i++, task.id().toString());
      statement.setLong(i++, write.expectedVersion());
    }
    return i;
  }

  /**
   * The audit row of a write, added by the same statement when the write takes effect (PostgreSQL's
   * data-modifying {@code WITH}): the row's statement returns the row, and the audit row is
   * selected from what it returned, so an update that lost its compare-and-set adds none.
   */
  private static final String AUDIT_FROM_WRITTEN =
      " RETURNING id, version) INSERT INTO taskgate_task_audit (id, task_id, task_version,"
          + " from_status, to_status, at, attempt, detail) SELECT ?, w.id, w.version, ?, ?, ?, ?, ?"
          + " FROM w";

  /**
   * Applies {@code writes} in order on PostgreSQL with one statement per write, its audit row
   * included ({@link #AUDIT_FROM_WRITTEN}): consecutive writes of one kind go as one JDBC batch. A
   * single write in auto-commit mode is then one round trip to the database, its commit included,
   * where {@link #apply} takes one for the row, one for the audit and one for the commit.
   */
  static List<Optional<StoredTask>> applyCombined(Connection connection, List<Prepared> writes) {
    try {
      return results(writes, runAll(connection, writes, true));
    } catch (SQLException e) {
      throw failed(writes, e);
    }
  }

  private static void bindAudit(PreparedStatement statement, int from, TaskAudit audit)
      throws SQLException {
    int i = from;
    statement.setString(i++, UUID.randomUUID().toString());
    statement.setString(i++, audit.from() == null ? null : audit.from().name());
    statement.setString(i++, audit.to().name());
    statement.setObject(i++, TaskEntity.column(audit.at()));
    statement.setInt(i++, audit.attempt());
    statement.setString(i, audit.detail());
  }

  /** Adds {@code notes} as audit rows from QUEUED to QUEUED, in one batch. */
  static void note(Connection connection, List<TaskNote> notes) {
    try (PreparedStatement statement = connection.prepareStatement(INSERT_AUDIT)) {
      for (TaskNote note : notes) {
        statement.setString(1, UUID.randomUUID().toString());
        statement.setString(2, note.taskId().toString());
        statement.setLong(3, note.taskVersion());
        statement.setString(4, TaskStatus.QUEUED.name());
        statement.setString(5, TaskStatus.QUEUED.name());
        statement.setObject(6, TaskEntity.column(note.at()));
        statement.setInt(7, note.attempt());
        statement.setString(8, note.detail());
        statement.addBatch();
      }
      statement.executeBatch();
    } catch (SQLException e) {
      throw new PersistenceException(
          "Storing " + notes.size() + " audit note(s) failed: " + e.getMessage(), e);
    }
  }

  private static void audit(Connection connection, List<Prepared> audited) throws SQLException {
    if (audited.isEmpty()) {
      return;
    }
    try (PreparedStatement statement = connection.prepareStatement(INSERT_AUDIT)) {
      for (Prepared write : audited) {
        TaskAudit audit = write.audit();
        statement.setString(1, UUID.randomUUID().toString());
        statement.setString(2, audit.taskId().toString());
        statement.setLong(3, write.stored().version());
        statement.setString(4, audit.from() == null ? null : audit.from().name());
        statement.setString(5, audit.to().name());
        statement.setObject(6, TaskEntity.column(audit.at()));
        statement.setInt(7, audit.attempt());
        statement.setString(8, audit.detail());
        if (audited.size() == 1) {
          statement.executeUpdate();
          return;
        }
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }
}
