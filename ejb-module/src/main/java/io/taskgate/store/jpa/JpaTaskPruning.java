package io.taskgate.store.jpa;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.TaskFilter;
import io.taskgate.store.TaskPruning;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * Deletes ended tasks and their audit rows through JPA bulk statements, a batch per transaction:
 * the ids of the batch first, read with their rows locked (those that ended first, through the
 * index on status and end time), then those tasks and their audit rows by id.
 */
public final class JpaTaskPruning implements TaskPruning {
  /** The PostgreSQL advisory lock of pruning: one instance deletes at a time ('tgprune!'). */
  public static final long LOCK_KEY = 0x74677072756e6521L;

  private final Transactor tx;

  public JpaTaskPruning(Transactor tx) {
    this.tx = Objects.requireNonNull(tx, "tx");
  }

  @Override
  public int delete(TaskFilter filter, int max, boolean exclusive) {
    Objects.requireNonNull(filter, "filter");
    for (TaskStatus status : filter.statuses()) {
      if (!status.terminal()) {
        throw new IllegalArgumentException(
            "only ended tasks are deleted, not " + status + " ones: " + filter.statuses());
      }
    }
    if (max < 1) {
      return 0;
    }
    String where = FilterJpql.where(filter);
    return tx.inTransaction(
        em -> {
          if (exclusive && !locked(em)) {
            return BUSY;
          }
          Query select =
              em.createQuery(
                      "SELECT t.id FROM TaskEntity t WHERE "
                          + where
                          + " ORDER BY t.updatedAt, t.id")
                  .setMaxResults(max);
          FilterJpql.bind(filter, select);
          @SuppressWarnings("unchecked")
          List<String> ids = select.getResultList();
          if (ids.isEmpty()) {
            return 0;
          }
          // the filter again: a task requeued since it was read stays, with its audit
          Query tasks =
              em.createQuery("DELETE FROM TaskEntity t WHERE t.id IN :ids AND " + where)
                  .setParameter("ids", ids);
          FilterJpql.bind(filter, tasks);
          int deleted = tasks.executeUpdate();
          List<String> gone = ids;
          if (deleted < ids.size()) {
            List<String> kept =
                em.createQuery("SELECT t.id FROM TaskEntity t WHERE t.id IN :ids", String.class)
                    .setParameter("ids", ids)
                    .getResultList();
            gone = ids.stream().filter(id -> !kept.contains(id)).toList();
          }
          if (!gone.isEmpty()) {
            em.createQuery("DELETE FROM TaskAuditEntity a WHERE a.taskId IN :ids")
                .setParameter("ids", gone)
                .executeUpdate();
            // the unique keys they held last: a key whose task is gone is free anyway
            em.createQuery("DELETE FROM UniqueEntity u WHERE u.taskId IN :ids")
                .setParameter("ids", gone)
                .executeUpdate();
          }
          return deleted;
        });
  }

  /** Takes pruning's lock for the transaction on PostgreSQL; true at once elsewhere. */
  private static boolean locked(EntityManager em) {
    try {
      Connection connection = em.unwrap(Connection.class);
      if (!connection.getMetaData().getDatabaseProductName().equals("PostgreSQL")) {
        return true;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Taskgate could not read the database's name", e);
    }
    Object taken =
        em.createNativeQuery("SELECT pg_try_advisory_xact_lock(" + LOCK_KEY + ")")
            .getSingleResult();
    return Boolean.TRUE.equals(taken);
  }
}
