package io.taskgate.store;

import io.taskgate.api.PauseScope;
import java.time.Instant;
import java.util.Objects;

/**
 * A queue, task type or rate-limit key paused: its tasks stay QUEUED, none starts, until it is
 * resumed.
 *
 * @param scope what is paused
 * @param name the queue's name, the task type's full class name, or the key (user data)
 * @param at when it was paused
 * @param by who paused it (the user name, or {@code application})
 * @param reason why, as the operator put it; null for none
 */
public record Pause(PauseScope scope, String name, Instant at, String by, String reason) {
  /** The longest name: a rate-limit key's length. */
  public static final int MAX_NAME_LENGTH = 1024;

  /** The longest reason kept. */
  public static final int MAX_REASON_LENGTH = 500;

  /** Checks the fields that must be present. */
  public Pause {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(by, "by");
  }

  /** What the change log names it by: {@code queue emails}, {@code key tenant-7}. */
  public String describe() {
    return scope.label() + " " + name;
  }
}
