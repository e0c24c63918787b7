package io.taskgate.archfixture.door.throttle;

/** The door of a fixture's throttling: what the rest of its engine may use. */
public interface Door {
  boolean waiting(String taskId);
}
