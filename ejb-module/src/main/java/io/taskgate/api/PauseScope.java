package io.taskgate.api;

import java.util.Locale;

/**
 * What a pause holds: every task of a queue, of a task type, or of one rate-limit key. A paused
 * task stays QUEUED and holds no worker until its queue, type and key are all resumed.
 */
public enum PauseScope {
  /** The tasks on one queue ({@link DispatchOptions#queue}), by the queue's name. */
  QUEUE,
  /** The tasks of one task type, by the type's full class name. */
  TYPE,
  /**
   * The tasks of one rate-limit key, of any task type: the key its handler's {@code rateLimitKey}
   * gives a task (the one the task list and the Rate Limits page show).
   */
  KEY;

  /** The scope as the REST API and the pages spell it: {@code queue}, {@code type}, {@code key}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The scope spelled {@code label}, in any case.
   *
   * @throws IllegalArgumentException naming the value and the ones allowed
   */
  public static PauseScope parse(String label) {
    for (PauseScope scope : values()) {
      if (scope.name().equalsIgnoreCase(label == null ? "" : label.trim())) {
        return scope;
      }
    }
    throw new IllegalArgumentException(
        "unknown pause scope '" + label + "': use queue, type or key");
  }
}
