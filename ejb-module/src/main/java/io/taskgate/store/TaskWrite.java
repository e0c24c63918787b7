package io.taskgate.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One write of {@link TaskStore#writeAll}: what {@link TaskStore#insert} or {@link
 * TaskStore#update} does alone, as a value, so that a store can apply many in one transaction.
 */
public sealed interface TaskWrite permits TaskWrite.Insert, TaskWrite.Update {

  /** The task this write concerns. */
  java.util.UUID taskId();

  /**
   * Stores a new task.
   *
   * @param task the task; not null
   */
  record Insert(StoredTask task) implements TaskWrite {
    /** Checks that the task is there. */
    public Insert {
      Objects.requireNonNull(task, "task");
    }

    @Override
    public java.util.UUID taskId() {
      return task.id();
    }
  }

  /**
   * A compare-and-set of a stored task, as {@link TaskStore#update}.
   *
   * @param expected the task as read; not null
   * @param changed what it becomes; not null
   * @param now the time of the change; not null
   */
  record Update(StoredTask expected, StoredTask changed, Instant now) implements TaskWrite {
    /** Checks that every part is there. */
    public Update {
      Objects.requireNonNull(expected, "expected");
      Objects.requireNonNull(changed, "changed");
      Objects.requireNonNull(now, "now");
    }

    @Override
    public java.util.UUID taskId() {
      return expected.id();
    }
  }
}
