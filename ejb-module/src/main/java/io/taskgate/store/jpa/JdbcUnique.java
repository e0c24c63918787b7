package io.taskgate.store.jpa;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.StoredTask;
import io.taskgate.store.UniqueClaim;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;

/**
 * A unique key claimed in the transaction that stores its task: the key's row in {@code
 * taskgate_unique} is read {@code FOR UPDATE}, so a second claim of the key waits for the first to
 * commit, then sees its task. A key without a row gets one; two claims inserting it at once make
 * one of them fail on the primary key, and its caller claims again, finding the row.
 */
final class JdbcUnique {
  private JdbcUnique() {}

  /** The row's id: the type and the key. */
  static String id(UniqueClaim claim) {
    return claim.type() + "\n" + claim.key();
  }

  /**
   * Claims {@code claim}'s key for {@code task} on {@code connection}, in its transaction: the id
   * of the existing task the key belongs to, or empty when {@code task} has it now (and may be
   * stored).
   */
  static Optional<UUID> claim(Connection connection, UniqueClaim claim, StoredTask task)
      throws SQLException {
    String id = id(claim);
    String holder = null;
    try (PreparedStatement s =
        connection.prepareStatement(
            "SELECT task_id FROM taskgate_unique WHERE id = ? FOR UPDATE")) {
      s.setString(1, id);
      try (ResultSet r = s.executeQuery()) {
        if (r.next()) {
          holder = r.getString(1);
        }
      }
    }
    OffsetDateTime now = TaskEntity.column(task.createdAt());
    if (holder == null) {
      try (PreparedStatement s =
          connection.prepareStatement(
              "INSERT INTO taskgate_unique (id, claimed_at, task_id, type, unique_key)"
                  + " VALUES (?, ?, ?, ?, ?)")) {
        s.setString(1, id);
        s.setObject(2, now);
        s.setString(3, task.id().toString());
        s.setString(4, claim.type());
        s.setString(5, claim.key());
        s.executeUpdate();
      }
      return Optional.empty();
    }
    if (!holder.equals(task.id().toString()) && holds(connection, holder, claim, task)) {
      return Optional.of(UUID.fromString(holder));
    }
    try (PreparedStatement s =
        connection.prepareStatement(
            "UPDATE taskgate_unique SET task_id = ?, claimed_at = ? WHERE id = ?")) {
      s.setString(1, task.id().toString());
      s.setObject(2, now);
      s.setString(3, id);
      s.executeUpdate();
    }
    return Optional.empty();
  }

  /** Whether the key still belongs to task {@code holder} (it exists and conflicts). */
  private static boolean holds(
      Connection connection, String holder, UniqueClaim claim, StoredTask task)
      throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement("SELECT status, created_at FROM taskgate_task WHERE id = ?")) {
      s.setString(1, holder);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return false; // deleted (retention, bulk delete): the key is free
        }
        TaskStatus status = TaskStatus.valueOf(r.getString(1));
        OffsetDateTime created = r.getObject(2, OffsetDateTime.class);
        return claim.policy().conflicts(status, created.toInstant(), task.createdAt());
      }
    }
  }
}
