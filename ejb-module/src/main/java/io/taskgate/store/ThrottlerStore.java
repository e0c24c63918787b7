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

  /** Every rate-limit change made at run time. */
  List<RateOverride> rateOverrides();

  /** Stores a rate-limit change and audits it; returns the one it replaced. */
  Optional<RateOverride> putRateOverride(RateOverride override, String by, Instant now);

  /** Drops a rate-limit change and audits it; returns it, empty if there was none. */
  Optional<RateOverride> removeRateOverride(String taskType, String key, String by, Instant now);

  /**
   * A task type's rate limit changed at run time: for the type, or for one key of it.
   *
   * @param taskType the task type's class name
   * @param key the key, or null for the whole type
   * @param permits executions per period
   * @param periodNanos the period
   * @param burst executions back to back
   */
  record RateOverride(String taskType, String key, int permits, long periodNanos, int burst) {
    /** What the change log shows: {@code permits=15 period=PT1M burst=15}. */
    public String describe() {
      return "permits="
          + permits
          + " period="
          + java.time.Duration.ofNanos(periodNanos)
          + " burst="
          + burst;
    }

    /** The id the change log names it by: the type's simple name, and the key if any. */
    public String auditId() {
      String simple =
          taskType.substring(Math.max(taskType.lastIndexOf('.'), taskType.lastIndexOf('$')) + 1);
      String id = key == null ? simple : simple + " key " + key;
      return id.length() > 100 ? id.substring(0, 99) + "…" : id;
    }
  }

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
