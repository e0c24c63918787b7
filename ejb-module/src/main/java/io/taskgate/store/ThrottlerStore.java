package io.taskgate.store;

import io.taskgate.api.ThrottlerKind;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The definitions of semaphores and windows, shared by the instances of a cluster through the
 * database, and the audit of every change to them.
 */
public interface ThrottlerStore {

  /** Every definition, by kind then id. */
  List<ThrottlerRecord> definitions();

  /**
   * Stores {@code record} (adding or replacing its kind and id) and audits the change made by
   * {@code by} at {@code now}, unless it changes nothing; returns the definition it replaced.
   */
  Optional<ThrottlerRecord> put(ThrottlerRecord record, String by, Instant now);

  /** Removes a definition and audits it; returns the one removed, empty if there was none. */
  Optional<ThrottlerRecord> remove(ThrottlerKind kind, String id, String by, Instant now);

  /** The latest {@code max} changes, newest first. */
  List<ThrottlerChange> changes(int max);
}
