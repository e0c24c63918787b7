package io.taskgate.api;

/** What a dispatch does when a task with its unique key exists already ({@link Unique}). */
public enum UniqueConflict {
  /**
   * The existing task stays as it is and the new one is not stored: the receipt names the existing
   * task ({@link TaskReceipt#duplicate()}).
   */
  KEEP,
  /** The dispatch fails with a {@link DuplicateTaskException} naming the existing task. */
  REJECT,
  /**
   * A QUEUED existing task gets the new payload ({@link TaskReceipt#replaced()}); one that has
   * started or ended is kept, as with {@link #KEEP}.
   */
  REPLACE
}
