package io.taskgate.core.throttle;

import io.taskgate.core.window.WindowRule;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The starts of a fixed or sliding window, counted per bucket: buckets of {@code bucketMillis}
 * aligned on the epoch, an interval of {@code buckets} consecutive buckets (one: a fixed window). A
 * start counts in every interval its bucket belongs to, so a start is let in when the current
 * bucket and the {@code buckets - 1} before it hold fewer than the limit; buckets in the future
 * hold nothing yet, so no later interval is the tighter one. Counts older than the interval are
 * dropped as time passes. The bucket layout is passed in on each call, so a redefined window keeps
 * its counts. The rule (what fits, when a full interval opens) is {@link WindowRule}'s; this class
 * keeps the counts. Not thread-safe.
 */
public final class WindowCounts implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /**
   * What {@link #acquire} answered.
   *
   * @param granted whether the start was counted
   * @param bucketStart the start of the bucket it was counted in (give it back with {@link #add}
   *     and -1 if the attempt never starts); -1 if refused
   * @param opensAt when refused, the earliest time a start could be let in; -1 if granted
   */
  public record Grant(boolean granted, long bucketStart, long opensAt) {}

  /** Bucket start (epoch ms) to starts counted in it, only buckets of the current interval. */
  private final TreeMap<Long, Integer> counts = new TreeMap<>();

  /** The start of the bucket holding {@code nowMillis}. */
  public static long bucketStart(long nowMillis, long bucketMillis) {
    return new WindowRule(bucketMillis, 1).bucketStart(nowMillis); // the same for any buckets
  }

  /**
   * Counts a start at {@code nowMillis} if fewer than {@code limit} are counted in the interval.
   */
  public Grant acquire(long nowMillis, int limit, long bucketMillis, int buckets) {
    long current = bucketStart(nowMillis, bucketMillis);
    if (WindowRule.fits(count(nowMillis, bucketMillis, buckets), 1, limit)) {
      counts.merge(current, 1, Integer::sum);
      return new Grant(true, current, -1);
    }
    return new Grant(false, -1, opensAt(nowMillis, limit, bucketMillis, buckets));
  }

  /**
   * Starts counted in the interval ending with the bucket of {@code nowMillis}; drops the buckets
   * that left it.
   */
  public int count(long nowMillis, long bucketMillis, int buckets) {
    long first = new WindowRule(bucketMillis, buckets).intervalStart(nowMillis);
    counts.headMap(first, false).clear();
    int sum = 0;
    for (int c : counts.values()) {
      sum += c;
    }
    return sum;
  }

  /**
   * The earliest time after {@code nowMillis} at which fewer than {@code limit} starts are counted
   * in the interval: when enough of the oldest buckets have left it. {@code nowMillis} itself if
   * there is room now.
   */
  public long opensAt(long nowMillis, int limit, long bucketMillis, int buckets) {
    int sum = count(nowMillis, bucketMillis, buckets);
    return opensAt(counts, sum, nowMillis, limit, bucketMillis, buckets);
  }

  static long opensAt(
      NavigableMap<Long, Integer> counts,
      int sum,
      long nowMillis,
      int limit,
      long bucketMillis,
      int buckets) {
    return new WindowRule(bucketMillis, buckets)
        .opensAt(nowMillis, sum, 1, limit, oldestFirst(counts));
  }

  /** The counts of {@code counts} for {@link WindowRule#opensAt}, oldest first; a copy. */
  private static WindowRule.Counts oldestFirst(NavigableMap<Long, Integer> counts) {
    long[] starts = new long[counts.size()];
    int[] values = new int[counts.size()];
    int i = 0;
    for (Map.Entry<Long, Integer> e : counts.entrySet()) {
      starts[i] = e.getKey();
      values[i++] = e.getValue();
    }
    return WindowRule.Counts.of(starts, values);
  }

  /** Adds {@code delta} starts to the bucket starting at {@code bucketStart} (never below 0). */
  public void add(long bucketStart, int delta) {
    int next = counts.getOrDefault(bucketStart, 0) + delta;
    if (next <= 0) {
      counts.remove(bucketStart);
    } else {
      counts.put(bucketStart, next);
    }
  }

  /** Whether nothing is counted in the interval of {@code nowMillis}. */
  public boolean isIdle(long nowMillis, long bucketMillis, int buckets) {
    return count(nowMillis, bucketMillis, buckets) == 0;
  }

  /** The latest bucket with a start, or -1 if none is counted. */
  public long lastBucket() {
    return counts.isEmpty() ? -1 : counts.lastKey();
  }

  /** The counts of the current interval, bucket start to starts, oldest first; a copy. */
  public NavigableMap<Long, Integer> buckets(long nowMillis, long bucketMillis, int buckets) {
    count(nowMillis, bucketMillis, buckets);
    return Collections.unmodifiableNavigableMap(new TreeMap<>(counts));
  }

  /** Adds every count of {@code other} into {@code into}. */
  static void addInto(TreeMap<Long, Integer> into, WindowCounts other) {
    for (Iterator<Map.Entry<Long, Integer>> i = other.counts.entrySet().iterator(); i.hasNext(); ) {
      Map.Entry<Long, Integer> e = i.next();
      into.merge(e.getKey(), e.getValue(), Integer::sum);
    }
  }

  /** Writes the counts to {@code out}, for {@link #readFrom}. */
  public void writeTo(DataOutput out) throws IOException {
    out.writeInt(counts.size());
    for (Map.Entry<Long, Integer> e : counts.entrySet()) {
      out.writeLong(e.getKey());
      out.writeInt(e.getValue());
    }
  }

  /** The counts {@link #writeTo} wrote. */
  public static WindowCounts readFrom(DataInput in) throws IOException {
    WindowCounts window = new WindowCounts();
    for (int n = in.readInt(); n > 0; n--) {
      window.counts.put(in.readLong(), in.readInt());
    }
    return window;
  }
}
