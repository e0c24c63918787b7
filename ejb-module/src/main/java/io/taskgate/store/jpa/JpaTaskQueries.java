package io.taskgate.store.jpa;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.DueTask;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import io.taskgate.store.TaskFilter;
import io.taskgate.store.TaskPage;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskQuery;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The read model ({@link TaskQueries}) over JPA, on the same transactions as {@link JpaTaskStore}:
 * each call is one read transaction, and nothing stays managed afterwards.
 */
public final class JpaTaskQueries implements TaskQueries {
  private final Transactor tx;

  public JpaTaskQueries(Transactor tx) {
    this.tx = Objects.requireNonNull(tx, "tx");
  }

  @Override
  public List<StoredTask> findByStatus(Set<TaskStatus> statuses, int max) {
    Objects.requireNonNull(statuses, "statuses");
    if (noRows(max) || statuses.isEmpty()) {
      return List.of();
    }
    Set<TaskStatus> wanted = EnumSet.copyOf(statuses);
    return tx.inTransaction(
        em ->
            JpaTaskStore.readAll(
                em,
                em.createQuery(
                        "SELECT t FROM TaskEntity t WHERE t.status IN :statuses"
                            + " ORDER BY t.scheduledAt, t.id",
                        TaskEntity.class)
                    .setParameter("statuses", wanted)
                    .setMaxResults(max)));
  }

  @Override
  public List<StoredTask> findOrphans(TaskStatus status, Set<String> live, UUID after, int max) {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(live, "live");
    if (noRows(max)) {
      return List.of();
    }
    String owners = live.isEmpty() ? "" : " AND (t.owner IS NULL OR t.owner NOT IN :live)";
    return pageById(
        "t.status = :status" + owners,
        after,
        max,
        query -> {
          query.setParameter("status", status);
          if (!live.isEmpty()) {
            query.setParameter("live", List.copyOf(live));
          }
        });
  }

  @Override
  public List<StoredTask> findOwnedBy(TaskStatus status, Set<String> owners, UUID after, int max) {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(owners, "owners");
    if (noRows(max) || owners.isEmpty()) {
      return List.of();
    }
    return pageById(
        "t.owner IN :owners AND t.status = :status",
        after,
        max,
        query -> query.setParameter("owners", List.copyOf(owners)).setParameter("status", status));
  }

  @Override
  public List<StoredTask> findStarted(Set<String> types, boolean retrying, UUID after, int max) {
    Objects.requireNonNull(types, "types");
    if (noRows(max) || types.isEmpty()) {
      return List.of();
    }
    String started =
        retrying
            ? "(t.status = :running OR (t.status = :queued AND t.attempt > 0))"
            : "t.status = :running";
    return pageById(
        "t.type IN :types AND " + started,
        after,
        max,
        query -> {
          query
              .setParameter("types", List.copyOf(types))
              .setParameter("running", TaskStatus.IN_PROGRESS);
          if (retrying) {
            query.setParameter("queued", TaskStatus.QUEUED);
          }
        });
  }

  /**
   * Whether a read of at most {@code max} rows reads none; refuses a negative {@code max}.
   *
   * @throws IllegalArgumentException when {@code max} is negative
   */
  static boolean noRows(int max) {
    if (max < 0) {
      throw new IllegalArgumentException("max must not be negative, was " + max);
    }
    return max == 0;
  }

  /**
   * At most {@code max} of the tasks {@code where} selects, in id order, after the id {@code after}
   * (null: from the first); {@code bind} sets the parameters of {@code where}.
   */
  private List<StoredTask> pageById(
      String where, UUID after, int max, Consumer<TypedQuery<TaskEntity>> bind) {
    String from = after == null ? "" : " AND t.id > :after";
    return tx.inTransaction(
        em -> {
          TypedQuery<TaskEntity> query =
              em.createQuery(
                      "SELECT t FROM TaskEntity t WHERE " + where + from + " ORDER BY t.id",
                      TaskEntity.class)
                  .setMaxResults(max);
          bind.accept(query);
          if (after != null) {
            query.setParameter("after", after.toString());
          }
          return JpaTaskStore.readAll(em, query);
        });
  }

  @Override
  public List<StoredTask> find(TaskFilter filter, UUID after, int max) {
    Objects.requireNonNull(filter, "filter");
    if (noRows(max)) {
      return List.of();
    }
    return pageById(FilterJpql.where(filter), after, max, query -> FilterJpql.bind(filter, query));
  }

  @Override
  public long count(TaskFilter filter) {
    Objects.requireNonNull(filter, "filter");
    return tx.inTransaction(
        em -> {
          TypedQuery<Long> count =
              em.createQuery(
                  "SELECT COUNT(t) FROM TaskEntity t WHERE " + FilterJpql.where(filter),
                  Long.class);
          FilterJpql.bind(filter, count);
          return count.getSingleResult();
        });
  }

  @Override
  public List<DueTask> findQueued(DueTask after, int max) {
    return QueuedPages.page(tx, null, after, max);
  }

  @Override
  public TaskPage query(TaskQuery query) {
    Objects.requireNonNull(query, "query");
    StringBuilder where = new StringBuilder(" WHERE 1 = 1");
    query.status().ifPresent(s -> where.append(" AND t.status = :status"));
    query.type().ifPresent(s -> where.append(" AND t.type = :type"));
    query.queue().ifPresent(s -> where.append(" AND t.queue = :queue"));
    query.rateKey().ifPresent(s -> where.append(" AND t.rateKey = :rateKey"));
    List<String> errorParts =
        query
            .lastErrorLike()
            .map(p -> List.of(p.split(java.util.regex.Pattern.quote(TaskQuery.OWN_TYPE), -1)))
            .orElse(List.of());
    if (!errorParts.isEmpty()) {
      where.append(" AND t.lastError LIKE ");
      where.append(errorParts.size() == 1 ? ":error0" : "CONCAT(:error0");
      for (int i = 1; i < errorParts.size(); i++) {
        where.append(", t.type, :error").append(i);
      }
      where.append(errorParts.size() == 1 ? "" : ")");
    }
    long offset = (long) query.page() * query.size();
    return tx.inTransaction(
        em -> {
          TypedQuery<Long> count =
              em.createQuery("SELECT COUNT(t) FROM TaskEntity t" + where, Long.class);
          TypedQuery<TaskEntity> page =
              em.createQuery(
                  "SELECT t FROM TaskEntity t"
                      + where
                      + switch (query.order()) {
                        case NEWEST -> " ORDER BY t.createdAt DESC, t.id DESC";
                        case OLDEST -> " ORDER BY t.createdAt, t.id";
                        case DUE -> " ORDER BY t.scheduledAt, t.id";
                      },
                  TaskEntity.class);
          for (TypedQuery<?> q : List.of(count, page)) {
            query.status().ifPresent(s -> q.setParameter("status", s));
            query.type().ifPresent(s -> q.setParameter("type", s));
            query.queue().ifPresent(s -> q.setParameter("queue", s));
            query.rateKey().ifPresent(s -> q.setParameter("rateKey", s));
            for (int i = 0; i < errorParts.size(); i++) {
              q.setParameter("error" + i, errorParts.get(i));
            }
          }
          long total = count.getSingleResult();
          List<StoredTask> tasks =
              offset >= total
                  ? List.of()
                  : JpaTaskStore.readAll(
                      em, page.setFirstResult((int) offset).setMaxResults(query.size()));
          return new TaskPage(tasks, total);
        });
  }

  @Override
  public Map<String, Map<TaskStatus, Long>> countByQueueAndStatus() {
    return tx.inTransaction(
        em -> {
          Map<String, Map<TaskStatus, Long>> counts = new TreeMap<>();
          for (Object[] row :
              em.createQuery(
                      "SELECT t.queue, t.status, COUNT(t) FROM TaskEntity t"
                          + " GROUP BY t.queue, t.status",
                      Object[].class)
                  .getResultList()) {
            counts
                .computeIfAbsent((String) row[0], q -> new EnumMap<>(TaskStatus.class))
                .put((TaskStatus) row[1], ((Number) row[2]).longValue());
          }
          return counts;
        });
  }

  @Override
  public Map<String, Instant> oldestDueByQueue(Instant now) {
    return tx.inTransaction(
        em -> {
          Map<String, Instant> oldest = new TreeMap<>();
          for (Object[] row :
              em.createQuery(
                      "SELECT t.queue, MIN(t.scheduledAt) FROM TaskEntity t"
                          + " WHERE t.status = :status AND t.scheduledAt <= :now GROUP BY t.queue",
                      Object[].class)
                  .setParameter("status", TaskStatus.QUEUED)
                  .setParameter("now", TaskEntity.column(now))
                  .getResultList()) {
            oldest.put((String) row[0], ((OffsetDateTime) row[1]).toInstant());
          }
          return oldest;
        });
  }

  @Override
  public Map<String, Long> countInProgressByOwner() {
    return tx.inTransaction(
        em -> {
          Map<String, Long> counts = new TreeMap<>();
          for (Object[] row :
              em.createQuery(
                      "SELECT t.owner, COUNT(t) FROM TaskEntity t WHERE t.status = :status"
                          + " AND t.owner IS NOT NULL GROUP BY t.owner",
                      Object[].class)
                  .setParameter("status", TaskStatus.IN_PROGRESS)
                  .getResultList()) {
            counts.put((String) row[0], ((Number) row[1]).longValue());
          }
          return counts;
        });
  }

  @Override
  public List<TaskAudit> history(UUID id) {
    String key = Objects.requireNonNull(id, "id").toString();
    return tx.inTransaction(
        em -> {
          List<TaskAuditEntity> rows =
              em.createQuery(
                      "SELECT a FROM TaskAuditEntity a WHERE a.taskId = :taskId"
                          + " ORDER BY a.taskVersion, a.at, a.id",
                      TaskAuditEntity.class)
                  .setParameter("taskId", key)
                  .getResultList();
          List<TaskAudit> audits = new ArrayList<>(rows.size());
          for (TaskAuditEntity row : rows) {
            audits.add(row.toTaskAudit());
            em.detach(row);
          }
          return List.copyOf(audits);
        });
  }
}
