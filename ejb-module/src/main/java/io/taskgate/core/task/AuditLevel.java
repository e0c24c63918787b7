package io.taskgate.core.task;

import io.taskgate.api.TaskStatus;

/** Which status changes of a task leave an audit row. */
public enum AuditLevel {
  /** Every status change, the insert included. */
  FULL,
  /** Only the change into a terminal status. */
  MINIMAL,
  /** None. */
  NONE;

  /** Whether a change into {@code to} leaves a row at this level. */
  public boolean records(TaskStatus to) {
    return this == FULL || (this == MINIMAL && to.terminal());
  }
}
