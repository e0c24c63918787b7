package io.taskgate.store.jpa;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.BudgetStore;
import io.taskgate.store.SavedBudget;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@link BudgetStore} in {@code taskgate_rate_budget} and {@code taskgate_budget_mark}, with SQL on
 * the transaction's connection: a key's row is inserted or raised in one statement ({@code INSERT …
 * ON CONFLICT} on PostgreSQL, {@code MERGE} on H2), never moved back ({@code GREATEST}), so that
 * instances saving the same key in any order leave its latest time.
 */
public final class JpaBudgetStore implements BudgetStore {
  private static final String PG_SAVE =
      "INSERT INTO taskgate_rate_budget (id, scope, rate_key, tat_nanos, saved_at)"
          + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET tat_nanos ="
          + " GREATEST(taskgate_rate_budget.tat_nanos, EXCLUDED.tat_nanos), saved_at ="
          + " EXCLUDED.saved_at";

  private static final String H2_SAVE =
      "MERGE INTO taskgate_rate_budget t USING (VALUES (CAST(? AS VARCHAR(64)),"
          + " CAST(? AS VARCHAR(255)), CAST(? AS VARCHAR(1024)), CAST(? AS BIGINT),"
          + " CAST(? AS TIMESTAMP(6) WITH TIME ZONE))) AS s(id, scope, rate_key, tat_nanos,"
          + " saved_at) ON t.id = s.id WHEN MATCHED THEN UPDATE SET tat_nanos ="
          + " GREATEST(t.tat_nanos, s.tat_nanos), saved_at = s.saved_at WHEN NOT MATCHED THEN"
          + " INSERT (id, scope, rate_key, tat_nanos, saved_at) VALUES (s.id, s.scope,"
          + " s.rate_key, s.tat_nanos, s.saved_at)";

  private static final String PG_MARK =
      "INSERT INTO taskgate_budget_mark (instance_id, saved_at) VALUES (?, ?)"
          + " ON CONFLICT (instance_id) DO UPDATE SET saved_at = EXCLUDED.saved_at";

  private static final String H2_MARK =
      "MERGE INTO taskgate_budget_mark (instance_id, saved_at) KEY (instance_id) VALUES (?, ?)";

  private final Transactor tx;

  public JpaBudgetStore(Transactor tx) {
    this.tx = Objects.requireNonNull(tx, "tx");
  }

  @Override
  public void save(Collection<SavedBudget> budgets, String instance, Instant savedAt) {
    OffsetDateTime at = TaskEntity.column(savedAt);
    tx.inTransaction(
        em -> {
          Connection connection = em.unwrap(Connection.class);
          try {
            boolean postgres = postgres(connection);
            if (!budgets.isEmpty()) {
              try (PreparedStatement s =
                  connection.prepareStatement(postgres ? PG_SAVE : H2_SAVE)) {
                for (SavedBudget budget : budgets) {
                  s.setString(1, id(budget.scope(), budget.key()));
                  s.setString(2, budget.scope());
                  s.setString(3, budget.key());
                  s.setLong(4, budget.tatEpochNanos());
                  s.setObject(5, at);
                  s.addBatch();
                }
                s.executeBatch();
              }
            }
            try (PreparedStatement s = connection.prepareStatement(postgres ? PG_MARK : H2_MARK)) {
              s.setString(1, instance);
              s.setObject(2, at);
              s.executeUpdate();
            }
            return null;
          } catch (SQLException e) {
            throw new IllegalStateException("Taskgate could not save rate-limit budgets", e);
          }
        });
  }

  @Override
  public List<SavedBudget> load(long nowEpochNanos) {
    return query(
        "SELECT scope, rate_key, tat_nanos FROM taskgate_rate_budget WHERE tat_nanos > ?"
            + " ORDER BY scope, rate_key",
        s -> s.setLong(1, nowEpochNanos),
        r -> new SavedBudget(r.getString(1), r.getString(2), r.getLong(3)));
  }

  @Override
  public Map<String, Instant> marks() {
    Map<String, Instant> marks = new HashMap<>();
    for (Object[] row :
        query(
            "SELECT instance_id, saved_at FROM taskgate_budget_mark",
            s -> {},
            r -> new Object[] {r.getString(1), r.getObject(2, OffsetDateTime.class)})) {
      marks.put((String) row[0], ((OffsetDateTime) row[1]).toInstant());
    }
    return marks;
  }

  @Override
  public List<TypedKey> keysTouchedSince(String owner, Instant since) {
    OffsetDateTime from = TaskEntity.column(since);
    Set<TypedKey> keys = new LinkedHashSet<>();
    // one status at a time, through the index on (status, updated_at, id)
    for (TaskStatus status : TaskStatus.values()) {
      keys.addAll(
          query(
              "SELECT DISTINCT type, rate_key FROM taskgate_task WHERE status = ? AND"
                  + " updated_at >= ? AND owner_instance = ? AND rate_key IS NOT NULL",
              s -> {
                s.setString(1, status.name());
                s.setObject(2, from);
                s.setString(3, owner);
              },
              r -> new TypedKey(r.getString(1), r.getString(2))));
    }
    keys.addAll(
        query(
            "SELECT DISTINCT type, rate_key FROM taskgate_task WHERE owner_instance = ? AND"
                + " status = ? AND rate_key IS NOT NULL",
            s -> {
              s.setString(1, owner);
              s.setString(2, TaskStatus.IN_PROGRESS.name());
            },
            r -> new TypedKey(r.getString(1), r.getString(2))));
    return List.copyOf(keys);
  }

  @Override
  public int prune(long nowEpochNanos) {
    return tx.inTransaction(
        em -> {
          try (PreparedStatement s =
              em.unwrap(Connection.class)
                  .prepareStatement("DELETE FROM taskgate_rate_budget WHERE tat_nanos < ?")) {
            s.setLong(1, nowEpochNanos);
            return s.executeUpdate();
          } catch (SQLException e) {
            throw new IllegalStateException("Taskgate could not prune rate-limit budgets", e);
          }
        });
  }

  /** A key's row id: the hex SHA-256 of its scope and key. */
  static String id(String scope, String key) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(scope.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      return HexFormat.of().formatHex(sha.digest(key.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean postgres(Connection connection) throws SQLException {
    return "PostgreSQL".equalsIgnoreCase(connection.getMetaData().getDatabaseProductName());
  }

  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private interface RowReader<T> {
    T read(ResultSet row) throws SQLException;
  }

  private <T> List<T> query(String sql, Binder binder, RowReader<T> reader) {
    return tx.inTransaction(
        em -> {
          try (PreparedStatement s = em.unwrap(Connection.class).prepareStatement(sql)) {
            binder.bind(s);
            List<T> rows = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
              while (r.next()) {
                rows.add(reader.read(r));
              }
            }
            return rows;
          } catch (SQLException e) {
            throw new IllegalStateException("Taskgate could not read rate-limit budgets", e);
          }
        });
  }
}
