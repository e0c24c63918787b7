package io.taskgate.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The engine instances that share the database, each with its heartbeat: what lets an instance tell
 * a live peer from a dead one without asking it. Every method is one short transaction of its own;
 * the current time is passed in, never read.
 */
public interface InstanceStore {

  /**
   * Records that {@code instance} is alive at {@code now}: inserts its row the first time, else
   * sets its start, host and version and its last beat (never backwards). Returns the row as it was
   * before, if there was one: a start other than this instance's there means another instance wrote
   * it since.
   */
  Optional<InstanceRecord> beat(InstanceRecord instance, Instant now);

  /** Every instance with a row, in the order of their ids. */
  List<InstanceRecord> instances();

  /**
   * Marks {@code id} as stopped (a clean stop): its last beat is set to the epoch, so that every
   * peer counts it as dead at once and takes over its tasks. Returns whether there was a row.
   */
  boolean markStopped(String id);

  /**
   * Removes the row of {@code id} if its last beat is still {@code lastBeat} (it has not beaten
   * since: an instance that came back keeps its row). Returns whether it removed it.
   */
  boolean removeIfSilent(String id, Instant lastBeat);
}
