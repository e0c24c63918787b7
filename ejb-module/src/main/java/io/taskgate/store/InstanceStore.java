package io.taskgate.store;

import java.time.Instant;
import java.util.List;

/**
 * The engine instances that share the database, each with its heartbeat: what lets an instance tell
 * a live peer from a dead one without asking it. Every method is one short transaction of its own;
 * the current time is passed in, never read.
 */
public interface InstanceStore {

  /**
   * Records that {@code instance} is alive at {@code now}: inserts its row the first time, else
   * sets its last beat (never backwards) and its host and version.
   */
  void beat(InstanceRecord instance, Instant now);

  /** Every instance with a row, in the order of their ids. */
  List<InstanceRecord> instances();

  /** Removes the row of {@code id} (a clean stop); returns whether there was one. */
  boolean remove(String id);
}
