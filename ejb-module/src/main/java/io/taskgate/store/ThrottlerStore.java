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

  /**
   * Adds {@code delta} to the starts window {@code resource} ({@code sub}-window, null for none)
   * counted in the bucket starting at {@code bucketStart} (epoch ms): what a restart reads back.
   */
  void addCount(String resource, String sub, long bucketStart, int delta);

  /** Every count of a bucket starting at or after {@code since} (epoch ms). */
  List<WindowCount> counts(long since);

  /** Drops the counts of buckets starting before {@code before} (epoch ms); returns how many. */
  int dropCounts(long before);

  /**
   * Starts of a window counted in one bucket.
   *
   * @param resource the window, {@code kind:id}
   * @param sub a dynamic window's sub-window; null for none
   * @param bucketStart the bucket's start, epoch ms
   * @param count the starts
   */
  record WindowCount(String resource, String sub, long bucketStart, int count) {}
}
