package io.taskgate.store.jpa;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.DueTask;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Pages of QUEUED tasks in (scheduledAt, id) order: the sweep's due tasks and recovery's stream.
 */
final class QueuedPages {
  private QueuedPages() {}

  /** A page of QUEUED tasks in (scheduledAt, id) order after {@code after}, due by {@code now}. */
  static List<DueTask> page(Transactor tx, Instant now, DueTask after, int max) {
    if (JpaTaskQueries.noRows(max)) {
      return List.of();
    }
    String due = now == null ? "" : " AND t.scheduledAt <= :now";
    // Two index ranges of (status, scheduled_at, id) rather than one OR: the rest of the last
    // page's instant, then later instants. Thousands of tasks released together share one
    // scheduledAt, and the OR made every page filter and sort all of them again.
    return tx.inTransaction(
        em -> {
          List<DueTask> page = new ArrayList<>();
          if (after == null) {
            readDue(em, now == null ? "1 = 1" : "t.scheduledAt <= :now", now, null, max, page);
            return page;
          }
          if (now == null || !after.scheduledAt().isAfter(now)) {
            readDue(em, "t.scheduledAt = :at AND t.id > :id", now, after, max, page);
          }
          if (page.size() < max) {
            readDue(em, "t.scheduledAt > :at" + due, now, after, max, page);
          }
          return page;
        });
  }

  private static void readDue(
      EntityManager em, String where, Instant now, DueTask after, int max, List<DueTask> due) {
    TypedQuery<Object[]> query =
        em.createQuery(
                "SELECT t.id, t.queue, t.scheduledAt, t.recurrence, t.owner FROM TaskEntity t"
                    + " WHERE t.status = :queued AND "
                    + where
                    + " ORDER BY t.scheduledAt, t.id",
                Object[].class)
            .setParameter("queued", TaskStatus.QUEUED)
            .setMaxResults(max - due.size());
    if (where.contains(":now")) {
      query.setParameter("now", TaskEntity.column(now));
    }
    if (where.contains(":at")) {
      query.setParameter("at", TaskEntity.column(after.scheduledAt()));
    }
    if (where.contains(":id")) {
      query.setParameter("id", after.id().toString());
    }
    for (Object[] row : query.getResultList()) {
      due.add(
          new DueTask(
              UUID.fromString((String) row[0]),
              (String) row[1],
              ((java.time.OffsetDateTime) row[2]).toInstant(),
              row[3] != null,
              (String) row[4]));
    }
  }
}
