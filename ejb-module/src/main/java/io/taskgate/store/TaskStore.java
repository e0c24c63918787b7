package io.taskgate.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Where tasks live between dispatch and the end of their life. Every method is one short
 * transaction of its own (or joins the caller's, in a container); the current time is passed in,
 * never read.
 *
 * <p>Invariants every implementation keeps:
 *
 * <ul>
 *   <li>{@link #update} is a compare-and-set on the version: it changes the row only if nobody
 *       changed it since {@code expected} was read, so two engines never both move one task.
 *   <li>A status change must be allowed by {@link io.taskgate.core.task.TaskStates}; a forbidden
 *       one is refused with an {@link IllegalStateException} naming both states and the task.
 *   <li>Audit rows follow the store's {@link io.taskgate.core.task.AuditLevel}: every status change
 *       at FULL, terminal ones only at MINIMAL, none at NONE.
 * </ul>
 */
public interface TaskStore {

  /** Stores a new task (and its first audit row at FULL). */
  void insert(StoredTask task);

  /**
   * Stores a new task unless the unique key it claims belongs to an existing task, atomically: the
   * key's row in the store is locked while the existing task is looked at, so that two callers
   * claiming one key at once (on two instances) store one task. The key belongs to the existing
   * task while {@link UniqueClaim#policy} says it conflicts; otherwise (it ended, its period
   * passed, it was deleted) {@code task} takes the key over. Returns the existing task's id, or
   * empty when {@code task} was stored.
   */
  Optional<UUID> insertUnique(StoredTask task, UniqueClaim claim);

  /**
   * Applies {@code writes} in order, all in one transaction (or the caller's): result {@code i} is
   * what write {@code i} gives alone, the task as stored for an {@link TaskWrite.Insert} and what
   * {@link #update} returns for an {@link TaskWrite.Update}. An update that loses its race is empty
   * and does not stop the others. An invalid write (a forbidden transition, a field too long) or a
   * failed transaction throws, and then none of the writes is applied.
   */
  List<Optional<StoredTask>> writeAll(List<TaskWrite> writes);

  /**
   * {@link #writeAll(List)}, the caller waiting for the commit as {@code wait} says (doing other
   * work meanwhile, for instance). The default writes and returns, with nothing to wait for.
   */
  default List<Optional<StoredTask>> writeAll(List<TaskWrite> writes, CommitWait wait) {
    return writeAll(writes);
  }

  /** The task with this id. */
  Optional<StoredTask> find(UUID id);

  /**
   * Adds audit rows that record no change of status (a task parked until its slot), where the audit
   * level records every change ({@link io.taskgate.core.task.AuditLevel#FULL}). The default adds
   * none.
   */
  default void note(List<TaskNote> notes) {}

  /**
   * The tasks among {@code ids} that exist, in no particular order: {@link #find} for a batch, in
   * one read where the store can. The default finds them one by one.
   */
  default List<StoredTask> findAll(Collection<UUID> ids) {
    List<StoredTask> found = new ArrayList<>(ids.size());
    for (UUID id : ids) {
      find(id).ifPresent(found::add);
    }
    return found;
  }

  /** The live (not terminal) task of {@code type} with this task key, if any. */
  Optional<StoredTask> findLive(String type, String taskKey);

  /**
   * Replaces {@code expected} by {@code changed} if the stored version is still {@code
   * expected.version()}; writes {@code updatedAt = now} and the next version.
   *
   * @return the stored task after the change, or empty if someone changed it first
   */
  Optional<StoredTask> update(StoredTask expected, StoredTask changed, Instant now);

  /**
   * Up to {@code max} QUEUED tasks due at {@code now} (scheduledAt not after it), in (scheduledAt,
   * id) order, starting after {@code after} in that order (null: from the first): page by passing
   * the last one of the previous page.
   */
  List<DueTask> findDue(Instant now, DueTask after, int max);
}
