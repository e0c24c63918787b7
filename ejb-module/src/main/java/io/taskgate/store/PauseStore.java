package io.taskgate.store;

import io.taskgate.api.PauseScope;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The pauses in force, shared by the instances of a cluster through the database, each pause and
 * resume audited in the throttlers' change log.
 */
public interface PauseStore {
  /** Every pause in force, by scope then name. */
  List<Pause> pauses();

  /**
   * Stores {@code pause} and audits it, unless its scope and name are paused already; returns the
   * pause in force before, empty if there was none (then {@code pause} is stored).
   */
  Optional<Pause> pause(Pause pause);

  /**
   * Removes the pause of {@code scope} and {@code name} and audits it as made by {@code by} at
   * {@code now}; returns it, empty if there was none.
   */
  Optional<Pause> resume(PauseScope scope, String name, String by, Instant now);
}
