package io.taskgate.store;

import java.util.List;
import java.util.Optional;

/**
 * The per-minute history every instance writes for its own counts and reads for all, so that the
 * statistics of a cluster sharing the database sum its instances. Each instance writes only its own
 * rows, with the counts as they stand (not increments): writing a minute again is harmless. Every
 * method is one short transaction of its own; the current time is passed in, never read.
 */
public interface HistoryStore {

  /**
   * Stores each record, replacing the row of the same instance, minute, queue and task type if
   * there is one.
   */
  void save(List<MinuteRecord> records);

  /**
   * The rows from {@code fromMinute} to {@code toMinute} (both included), of {@code instance} only
   * if given, by minute, then instance, queue and task type.
   */
  List<MinuteRecord> read(long fromMinute, long toMinute, Optional<String> instance);

  /** Removes the rows of the minutes before {@code epochMinute}; returns how many. */
  int deleteBefore(long epochMinute);
}
