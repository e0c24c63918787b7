package io.taskgate.store.jpa;

import static io.taskgate.core.task.TaskStatus.FAILED;

import io.taskgate.core.task.AuditLevel;
import io.taskgate.core.task.TaskStates;
import io.taskgate.core.task.TaskStatus;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import io.taskgate.store.TaskPage;
import io.taskgate.store.TaskQuery;
import io.taskgate.store.TaskStore;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The {@link TaskStore} on JPA, each method one {@link Transactor} call.
 *
 * <p>What it stores is what it hands back: instants are cut to whole microseconds (what both H2 and
 * PostgreSQL keep) and {@code lastError} to {@value TaskEntity#ERROR_LENGTH} characters (never
 * inside a surrogate pair, NUL characters replaced), both before writing, so {@link #update}
 * returns exactly what a later {@link #find} reads. {@link #update} is one {@code UPDATE … WHERE id
 * = ? AND version = ?}: a lost race changes no row and returns empty, it never throws or marks the
 * caller's transaction for rollback. The payload is written again only when it changed. An audit
 * row's detail is the new {@code lastError} when the change brings a new one or fails the task.
 * Nothing stays managed in the persistence context after a call.
 */
public final class JpaTaskStore implements TaskStore {

  private static final Set<TaskStatus> LIVE = EnumSet.noneOf(TaskStatus.class);

  static {
    for (TaskStatus status : TaskStatus.values()) {
      if (!status.terminal()) {
        LIVE.add(status);
      }
    }
  }

  private static final String SET_FIELDS =
      "t.status = :status, t.queue = :queue, t.taskKey = :taskKey,"
          + " t.scheduledAt = :scheduledAt, t.attempt = :attempt, t.lastError = :lastError,"
          + " t.recurrence = :recurrence, t.runs = :runs, t.updatedAt = :updatedAt,"
          + " t.version = :next";
  private static final String CAS_WHERE = " WHERE t.id = :id AND t.version = :version";
  private static final String UPDATE = "UPDATE TaskEntity t SET " + SET_FIELDS + CAS_WHERE;
  private static final String UPDATE_WITH_PAYLOAD =
      "UPDATE TaskEntity t SET t.payload = :payload, " + SET_FIELDS + CAS_WHERE;

  private final Transactor tx;
  private final AuditLevel level;

  public JpaTaskStore(Transactor tx, AuditLevel level) {
    this.tx = Objects.requireNonNull(tx, "tx");
    this.level = Objects.requireNonNull(level, "level");
  }

  @Override
  public void insert(StoredTask task) {
    StoredTask stored = normalize(Objects.requireNonNull(task, "task"));
    tx.inTransaction(
        em -> {
          TaskEntity row = new TaskEntity(stored);
          em.persist(row);
          TaskAuditEntity audit = null;
          if (level.records(stored.status())) {
            audit =
                new TaskAuditEntity(
                    new TaskAudit(
                        stored.id(),
                        null,
                        stored.status(),
                        stored.createdAt(),
                        stored.attempt(),
                        stored.lastError()),
                    stored.version());
            em.persist(audit);
          }
          em.flush();
          em.detach(row);
          if (audit != null) {
            em.detach(audit);
          }
          return null;
        });
  }

  @Override
  public Optional<StoredTask> find(UUID id) {
    String key = Objects.requireNonNull(id, "id").toString();
    return tx.inTransaction(em -> Optional.ofNullable(read(em, em.find(TaskEntity.class, key))));
  }

  @Override
  public Optional<StoredTask> findLive(String type, String taskKey) {
    Objects.requireNonNull(type, "type");
    if (taskKey == null) {
      return Optional.empty();
    }
    return tx.inTransaction(
        em ->
            readAll(
                    em,
                    em.createQuery(
                            "SELECT t FROM TaskEntity t WHERE t.type = :type"
                                + " AND t.taskKey = :taskKey AND t.status IN :live"
                                + " ORDER BY t.createdAt, t.id",
                            TaskEntity.class)
                        .setParameter("type", type)
                        .setParameter("taskKey", taskKey)
                        .setParameter("live", LIVE)
                        .setMaxResults(1))
                .stream()
                .findFirst());
  }

  @Override
  public Optional<StoredTask> update(StoredTask expected, StoredTask changed, Instant now) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(changed, "changed");
    Objects.requireNonNull(now, "now");
    requireSame("id", expected.id(), changed.id());
    requireSame("type", expected.type(), changed.type());
    requireSame("createdAt", expected.createdAt(), changed.createdAt());
    checkTransition(expected.id(), expected.status(), changed.status());
    StoredTask next =
        normalize(
            new StoredTask(
                changed.id(),
                changed.type(),
                changed.payload(),
                changed.status(),
                changed.queue(),
                changed.taskKey(),
                changed.scheduledAt(),
                changed.attempt(),
                changed.lastError(),
                changed.recurrence(),
                changed.runs(),
                changed.createdAt(),
                now,
                Math.addExact(expected.version(), 1)));
    boolean payloadChanged = !expected.payload().equals(next.payload());
    boolean statusChanged = expected.status() != next.status();
    TaskAudit audit =
        statusChanged && level.records(next.status())
            ? new TaskAudit(
                next.id(),
                expected.status(),
                next.status(),
                next.updatedAt(),
                next.attempt(),
                detail(expected, next))
            : null;
    int rows =
        tx.inTransaction(
            em -> {
              Query query =
                  em.createQuery(payloadChanged ? UPDATE_WITH_PAYLOAD : UPDATE)
                      .setParameter("status", next.status())
                      .setParameter("queue", next.queue())
                      .setParameter("taskKey", next.taskKey())
                      .setParameter("scheduledAt", TaskEntity.column(next.scheduledAt()))
                      .setParameter("attempt", next.attempt())
                      .setParameter("lastError", next.lastError())
                      .setParameter("recurrence", next.recurrence())
                      .setParameter("runs", next.runs())
                      .setParameter("updatedAt", TaskEntity.column(next.updatedAt()))
                      .setParameter("next", next.version())
                      .setParameter("id", next.id().toString())
                      .setParameter("version", expected.version());
              if (payloadChanged) {
                query.setParameter("payload", next.payload());
              }
              int changedRows = query.executeUpdate();
              if (changedRows == 1 && audit != null) {
                TaskAuditEntity row = new TaskAuditEntity(audit, next.version());
                em.persist(row);
                em.flush();
                em.detach(row);
              }
              return changedRows;
            });
    return rows == 1 ? Optional.of(next) : Optional.empty();
  }

  @Override
  public List<StoredTask> findByStatus(Set<TaskStatus> statuses, int max) {
    Objects.requireNonNull(statuses, "statuses");
    if (max < 0) {
      throw new IllegalArgumentException("max must not be negative, was " + max);
    }
    if (statuses.isEmpty() || max == 0) {
      return List.of();
    }
    Set<TaskStatus> wanted = EnumSet.copyOf(statuses);
    return tx.inTransaction(
        em ->
            readAll(
                em,
                em.createQuery(
                        "SELECT t FROM TaskEntity t WHERE t.status IN :statuses"
                            + " ORDER BY t.scheduledAt, t.id",
                        TaskEntity.class)
                    .setParameter("statuses", wanted)
                    .setMaxResults(max)));
  }

  @Override
  public TaskPage query(TaskQuery query) {
    Objects.requireNonNull(query, "query");
    StringBuilder where = new StringBuilder(" WHERE 1 = 1");
    query.status().ifPresent(s -> where.append(" AND t.status = :status"));
    query.type().ifPresent(s -> where.append(" AND t.type = :type"));
    query.queue().ifPresent(s -> where.append(" AND t.queue = :queue"));
    long offset = (long) query.page() * query.size();
    return tx.inTransaction(
        em -> {
          TypedQuery<Long> count =
              em.createQuery("SELECT COUNT(t) FROM TaskEntity t" + where, Long.class);
          TypedQuery<TaskEntity> page =
              em.createQuery(
                  "SELECT t FROM TaskEntity t" + where + " ORDER BY t.createdAt DESC, t.id DESC",
                  TaskEntity.class);
          for (TypedQuery<?> q : List.of(count, page)) {
            query.status().ifPresent(s -> q.setParameter("status", s));
            query.type().ifPresent(s -> q.setParameter("type", s));
            query.queue().ifPresent(s -> q.setParameter("queue", s));
          }
          long total = count.getSingleResult();
          List<StoredTask> tasks =
              offset >= total
                  ? List.of()
                  : readAll(em, page.setFirstResult((int) offset).setMaxResults(query.size()));
          return new TaskPage(tasks, total);
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
                          + " ORDER BY a.taskVersion, a.id",
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

  /** Refuses a move {@link TaskStates} does not allow, naming the task and both statuses. */
  static void checkTransition(UUID id, TaskStatus from, TaskStatus to) {
    Set<TaskStatus> allowed = TaskStates.next(from);
    if (!allowed.contains(to)) {
      throw new IllegalStateException(
          "Task "
              + id
              + " cannot move from "
              + from
              + " to "
              + to
              + (from.terminal()
                  ? ": " + from + " is terminal"
                  : "; allowed from " + from + ": " + allowed));
    }
  }

  /** {@code text} as the last_error and detail columns keep it. */
  static String errorText(String text) {
    if (text == null) {
      return null;
    }
    String clean = text.indexOf('\0') < 0 ? text : text.replace('\0', '\uFFFD');
    if (clean.length() <= TaskEntity.ERROR_LENGTH) {
      return clean;
    }
    int end = TaskEntity.ERROR_LENGTH;
    if (Character.isHighSurrogate(clean.charAt(end - 1))) {
      end--;
    }
    return clean.substring(0, end);
  }

  private static String detail(StoredTask before, StoredTask after) {
    boolean newError = !Objects.equals(before.lastError(), after.lastError());
    return newError || after.status() == FAILED ? after.lastError() : null;
  }

  /** {@code task} exactly as the database will keep it; refuses what does not fit. */
  private static StoredTask normalize(StoredTask task) {
    checkLength("type", task.type(), TaskEntity.NAME_LENGTH);
    checkLength("queue", task.queue(), TaskEntity.NAME_LENGTH);
    checkLength("taskKey", task.taskKey(), TaskEntity.NAME_LENGTH);
    checkLength("recurrence", task.recurrence(), TaskEntity.RECURRENCE_LENGTH);
    return new StoredTask(
        task.id(),
        task.type(),
        task.payload(),
        task.status(),
        task.queue(),
        task.taskKey(),
        micros(task.scheduledAt()),
        task.attempt(),
        errorText(task.lastError()),
        task.recurrence(),
        task.runs(),
        micros(task.createdAt()),
        micros(task.updatedAt()),
        task.version());
  }

  private static Instant micros(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MICROS);
  }

  private static void checkLength(String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw new IllegalArgumentException(
          field
              + " must be at most "
              + max
              + " characters, was "
              + value.length()
              + ": '"
              + value.substring(0, 40)
              + "…'");
    }
  }

  private static void requireSame(String field, Object expected, Object changed) {
    if (!expected.equals(changed)) {
      throw new IllegalArgumentException(
          "update cannot change a task's "
              + field
              + ": expected "
              + expected
              + ", changed "
              + changed);
    }
  }

  private static StoredTask read(EntityManager em, TaskEntity row) {
    if (row == null) {
      return null;
    }
    StoredTask task = row.toStoredTask();
    em.detach(row);
    return task;
  }

  private static List<StoredTask> readAll(EntityManager em, TypedQuery<TaskEntity> query) {
    List<StoredTask> tasks = new ArrayList<>();
    for (TaskEntity row : query.getResultList()) {
      tasks.add(read(em, row));
    }
    return List.copyOf(tasks);
  }
}
