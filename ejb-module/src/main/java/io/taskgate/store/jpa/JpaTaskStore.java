package io.taskgate.store.jpa;

import static io.taskgate.api.TaskStatus.FAILED;

import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.core.task.TaskStates;
import io.taskgate.store.DueTask;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import io.taskgate.store.TaskPage;
import io.taskgate.store.TaskQuery;
import io.taskgate.store.TaskStore;
import io.taskgate.store.TaskWrite;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The {@link TaskStore} on JPA, each method one {@link Transactor} call. Reads go through the
 * entities; writes ({@link #insert}, {@link #update}, {@link #writeAll}) are plain JDBC statements
 * on the transaction's connection, batched (see {@link JdbcWrites}), because a batch of writes in
 * one transaction is what lets the engine commit many tasks' transitions at once.
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
  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(JpaTaskStore.class.getName());

  private static final Set<TaskStatus> LIVE = EnumSet.noneOf(TaskStatus.class);

  static {
    for (TaskStatus status : TaskStatus.values()) {
      if (!status.terminal()) {
        LIVE.add(status);
      }
    }
  }

  private final Transactor tx;
  private final AuditLevel level;
  private volatile Runnable afterCommit = () -> {};

  /**
   * Runs {@code barrier} after every write this store commits in a transaction of its own, before
   * the write returns: what a database needs to have the commit on disk (see {@link
   * H2CommitDurability#checkpoint}). Writes that join the caller's transaction are not covered.
   */
  public JpaTaskStore afterEachCommit(Runnable barrier) {
    this.afterCommit = Objects.requireNonNull(barrier, "barrier");
    return this;
  }

  public JpaTaskStore(Transactor tx, AuditLevel level) {
    this.tx = Objects.requireNonNull(tx, "tx");
    this.level = Objects.requireNonNull(level, "level");
  }

  @Override
  public void insert(StoredTask task) {
    writeAll(List.of(new TaskWrite.Insert(task)));
  }

  @Override
  public Optional<StoredTask> update(StoredTask expected, StoredTask changed, Instant now) {
    return writeAll(List.of(new TaskWrite.Update(expected, changed, now))).get(0);
  }

  @Override
  public List<Optional<StoredTask>> writeAll(List<TaskWrite> writes) {
    Objects.requireNonNull(writes, "writes");
    if (writes.isEmpty()) {
      return List.of();
    }
    List<JdbcWrites.Prepared> prepared = new ArrayList<>(writes.size());
    for (TaskWrite write : writes) {
      prepared.add(prepare(Objects.requireNonNull(write, "write")));
    }
    boolean own = !tx.active();
    List<Optional<StoredTask>> results =
        tx.inTransaction(em -> JdbcWrites.apply(em.unwrap(java.sql.Connection.class), prepared));
    if (own) {
      try {
        afterCommit.run();
      } catch (RuntimeException e) {
        // the writes are committed: reporting a failure would make callers repeat them
        LOG.log(
            java.util.logging.Level.WARNING,
            "Taskgate could not flush a commit to the database file",
            e);
      }
    }
    return results;
  }

  /** Checks and normalizes one write, and works out its audit row. */
  private JdbcWrites.Prepared prepare(TaskWrite write) {
    if (write instanceof TaskWrite.Insert insert) {
      StoredTask stored = normalize(insert.task());
      TaskAudit audit =
          level.records(stored.status())
              ? new TaskAudit(
                  stored.id(),
                  null,
                  stored.status(),
                  stored.createdAt(),
                  stored.attempt(),
                  stored.lastError())
              : null;
      return new JdbcWrites.Prepared(stored, -1, true, audit);
    }
    TaskWrite.Update update = (TaskWrite.Update) write;
    StoredTask expected = update.expected();
    StoredTask changed = update.changed();
    requireSame("id", expected.id(), changed.id());
    requireSame("type", expected.type(), changed.type());
    requireSame("createdAt", expected.createdAt(), changed.createdAt());
    checkTransition(expected.id(), expected.status(), changed.status());
    if (expected.version() < 0) {
      throw new IllegalArgumentException(
          "Task " + expected.id() + " has a negative version: " + expected.version());
    }
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
                update.now(),
                Math.addExact(expected.version(), 1)));
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
    return new JdbcWrites.Prepared(
        next, expected.version(), !expected.payload().equals(next.payload()), audit);
  }

  @Override
  public Optional<StoredTask> find(UUID id) {
    String key = Objects.requireNonNull(id, "id").toString();
    return tx.inTransaction(em -> Optional.ofNullable(read(em, em.find(TaskEntity.class, key))));
  }

  @Override
  public List<StoredTask> findAll(Collection<UUID> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    List<String> keys = new ArrayList<>(ids.size());
    ids.forEach(id -> keys.add(Objects.requireNonNull(id, "id").toString()));
    return tx.inTransaction(
        em ->
            readAll(
                em,
                em.createQuery("SELECT t FROM TaskEntity t WHERE t.id IN :ids", TaskEntity.class)
                    .setParameter("ids", keys)));
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
  public List<DueTask> findDue(Instant now, DueTask after, int max) {
    Objects.requireNonNull(now, "now");
    return pageQueued(now, after, max);
  }

  @Override
  public List<DueTask> findQueued(DueTask after, int max) {
    return pageQueued(null, after, max);
  }

  /** A page of QUEUED tasks in (scheduledAt, id) order after {@code after}, due by {@code now}. */
  private List<DueTask> pageQueued(Instant now, DueTask after, int max) {
    if (max < 0) {
      throw new IllegalArgumentException("max must not be negative, was " + max);
    }
    if (max == 0) {
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
                "SELECT t.id, t.queue, t.scheduledAt, t.recurrence FROM TaskEntity t WHERE t.status = :queued AND "
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
              row[3] != null));
    }
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
