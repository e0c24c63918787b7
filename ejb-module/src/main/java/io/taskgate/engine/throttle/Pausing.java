package io.taskgate.engine.throttle;

import io.taskgate.api.PauseScope;
import io.taskgate.api.TaskStatus;
import io.taskgate.store.Pause;
import io.taskgate.store.StoredTask;
import java.util.List;
import java.util.Optional;

/**
 * The pauses of queues, task types and rate-limit keys: a paused task stays QUEUED and holds no
 * worker (it waits, as for a released resource, {@link #resource}, and is woken when its pause
 * ends). Pauses are kept in the database: they survive a restart, and every instance sharing the
 * database holds the tasks of a pause made on any of them (each reads the pauses every second, and
 * wakes its tasks when one ends). Tasks already started run to their end. Thread-safe.
 */
public interface Pausing {
  /** The prefix of the resources paused tasks wait for: {@code pause:queue:emails}. */
  String RESOURCE_PREFIX = "pause:";

  /** The resource the tasks of a pause wait for. */
  static String resource(PauseScope scope, String name) {
    return RESOURCE_PREFIX + scope.label() + ":" + name;
  }

  /** The pauses in force, by scope then name. */
  List<Pause> pauses();

  /**
   * The pause that holds a queued task of {@code type} on {@code queue} with rate-limit key {@code
   * rateKey} (null: none): its queue's, else its type's, else its key's; empty when none does.
   */
  Optional<Pause> holding(String queue, String type, String rateKey);

  /**
   * The pause that holds {@code task} if it is queued ({@link #holding(String, String, String)}).
   */
  default Optional<Pause> holding(StoredTask task) {
    return task.status() == TaskStatus.QUEUED
        ? holding(task.queue(), task.type(), task.rateKey())
        : Optional.empty();
  }

  /**
   * Pauses {@code name} of {@code scope} for {@code by} ({@code reason}, null for none), stored and
   * audited; returns the pause in force (an earlier one, if it was paused already: then nothing
   * changes).
   *
   * @throws IllegalArgumentException naming the field, if the name is blank or too long
   */
  Pause pause(PauseScope scope, String name, String by, String reason);

  /**
   * Ends the pause of {@code name} of {@code scope} for {@code by}, audited; its tasks are woken on
   * this instance now, on the others within a second. Returns the pause ended, empty if there was
   * none.
   */
  Optional<Pause> resume(PauseScope scope, String name, String by);

  /** How many tasks wait for the pause of {@code name} of {@code scope} on this instance. */
  int waiting(PauseScope scope, String name);
}
