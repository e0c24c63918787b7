package io.taskgate.store.jpa;

import static io.taskgate.api.TaskStatus.FAILED;

import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.core.task.TaskStates;
import io.taskgate.store.DueTask;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import io.taskgate.store.TaskNote;
import io.taskgate.store.TaskStore;
import io.taskgate.store.TaskWrite;
import io.taskgate.store.UniqueClaim;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
  private volatile LocalCommits.AfterCommit afterCommit;
  private volatile LocalCommits direct;

  /**
   * Runs {@code barrier} after every write this store commits in a transaction of its own, before
   * the write returns: what a database needs to have the commit on disk (see {@link
   * H2CommitDurability#checkpoint}). Writes that join the caller's transaction are not covered.
   */
  public JpaTaskStore afterEachCommit(LocalCommits.AfterCommit barrier) {
    this.afterCommit = Objects.requireNonNull(barrier, "barrier");
    return this;
  }

  /**
   * Commits the writes of a caller outside any transaction on a connection of {@code dataSource}
   * (the persistence unit's own data source) in a local transaction, the barrier after each commit
   * on the same connection ({@link LocalCommits}); writes that join a caller's transaction and all
   * reads keep going through the {@link Transactor}.
   */
  public JpaTaskStore writingThrough(javax.sql.DataSource dataSource) {
    this.direct = new LocalCommits(dataSource);
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
  public Optional<java.util.UUID> insertUnique(StoredTask task, UniqueClaim claim) {
    JdbcWrites.Prepared prepared = prepare(new TaskWrite.Insert(task));
    LocalCommits.Work<Optional<java.util.UUID>> work =
        c -> {
          Optional<java.util.UUID> holder = JdbcUnique.claim(c, claim, prepared.stored());
          if (holder.isEmpty()) {
            JdbcWrites.apply(c, List.of(prepared));
          }
          return holder;
        };
    for (int attempt = 0; ; attempt++) {
      try {
        return commit(work);
      } catch (RuntimeException e) {
        if (attempt > 0) {
          throw e; // another claim inserted the key's row meanwhile: the second look finds it
        }
      }
    }
  }

  /** {@code work} in a transaction of its own (or the caller's), the barrier after its commit. */
  private <T> T commit(LocalCommits.Work<T> work) {
    boolean own = !tx.active();
    LocalCommits local = direct;
    if (own && local != null) {
      return local.inTransaction(work, afterCommit, JpaTaskStore::flushFailed);
    }
    T result =
        tx.inTransaction(
            em -> {
              try {
                return work.run(em.unwrap(java.sql.Connection.class));
              } catch (java.sql.SQLException e) {
                throw new jakarta.persistence.PersistenceException(e.getMessage(), e);
              }
            });
    if (own && afterCommit != null) {
      try {
        tx.inTransaction(
            em -> {
              try {
                afterCommit.run(em.unwrap(java.sql.Connection.class));
                return null;
              } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
              }
            });
      } catch (RuntimeException e) {
        flushFailed(e);
      }
    }
    return result;
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
    LocalCommits local = direct;
    LocalCommits.AfterCommit barrier = afterCommit;
    if (own && local != null) {
      if (!local.postgres()) {
        return local.inTransaction(
            c -> JdbcWrites.apply(c, prepared), barrier, JpaTaskStore::flushFailed);
      }
      // one statement per write, its audit row included: a single write is one round trip
      return prepared.size() == 1
          ? local.autoCommitted(
              c -> JdbcWrites.applyCombined(c, prepared), barrier, JpaTaskStore::flushFailed)
          : local.inTransaction(
              c -> JdbcWrites.applyCombined(c, prepared), barrier, JpaTaskStore::flushFailed);
    }
    return commit(c -> JdbcWrites.apply(c, prepared));
  }

  /** The writes are committed: reporting a failure would make callers repeat them. */
  private static void flushFailed(Throwable e) {
    LOG.log(
        java.util.logging.Level.WARNING,
        "Taskgate could not flush a commit to the database file",
        e);
  }

  /** Checks and normalizes one write, and works out its audit row. */
  private JdbcWrites.Prepared prepare(TaskWrite write) {
    if (write instanceof TaskWrite.Insert insert) {
      StoredTask stored = StoredRows.normalize(insert.task());
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
        StoredRows.normalize(
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
                Math.addExact(expected.version(), 1),
                changed.owner(),
                changed.rateKey(),
                // kept from the insert: no update writes it
                changed.traceParent() != null ? changed.traceParent() : expected.traceParent()));
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
  public void note(List<TaskNote> notes) {
    if (notes.isEmpty() || !level.records(TaskStatus.QUEUED)) {
      return;
    }
    tx.inTransaction(
        em -> {
          JdbcWrites.note(
              em.unwrap(java.sql.Connection.class),
              notes.stream()
                  .map(
                      n ->
                          new TaskNote(
                              n.taskId(),
                              n.taskVersion(),
                              StoredRows.micros(n.at()),
                              n.attempt(),
                              n.detail().length() > TaskEntity.ERROR_LENGTH
                                  ? n.detail().substring(0, TaskEntity.ERROR_LENGTH)
                                  : n.detail()))
                  .toList());
          return null;
        });
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
  public List<DueTask> findDue(Instant now, DueTask after, int max) {
    Objects.requireNonNull(now, "now");
    return QueuedPages.page(tx, now, after, max);
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
              + (allowed.isEmpty()
                  ? ": " + from + " is terminal"
                  : "; allowed from " + from + ": " + allowed));
    }
  }

  private static String detail(StoredTask before, StoredTask after) {
    boolean newError = !Objects.equals(before.lastError(), after.lastError());
    return newError || after.status() == FAILED ? after.lastError() : null;
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

  static StoredTask read(EntityManager em, TaskEntity row) {
    if (row == null) {
      return null;
    }
    StoredTask task = row.toStoredTask();
    em.detach(row);
    return task;
  }

  static List<StoredTask> readAll(EntityManager em, TypedQuery<TaskEntity> query) {
    List<StoredTask> tasks = new ArrayList<>();
    for (TaskEntity row : query.getResultList()) {
      tasks.add(read(em, row));
    }
    return List.copyOf(tasks);
  }
}
