package io.taskgate.core.throttle;

import io.taskgate.api.WindowOptions;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sub-windows of a dynamic window, one per sub-id (a tenant, say), each a {@link WindowCounts}
 * with its own limit, all within an optional capacity: the most starts per interval across them.
 * With rebalancing, a sub-window's limit is {@code capacity / active} (the remainder going one each
 * to the earliest active), held within [minLimit, maxLimit], where the active sub-windows are those
 * with a start in the current interval, and one asking to start. At most {@link #MAX_SUB_WINDOWS}
 * are kept: a new one evicts the one idle longest, and waits when all are active. Not thread-safe.
 */
public final class DynamicWindowState implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /** The most sub-windows one dynamic window keeps. */
  public static final int MAX_SUB_WINDOWS = 1_000;

  private static final class Sub implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    final WindowCounts counts;
    long activeSince = -1; // when it last became active; -1 while idle

    Sub(WindowCounts counts) {
      this.counts = counts;
    }
  }

  private final LinkedHashMap<String, Sub> subs = new LinkedHashMap<>();
  private final int maxSubWindows;

  /** A dynamic window keeping at most {@link #MAX_SUB_WINDOWS} sub-windows. */
  public DynamicWindowState() {
    this(MAX_SUB_WINDOWS);
  }

  /** A dynamic window keeping at most {@code maxSubWindows} sub-windows (for tests). */
  public DynamicWindowState(int maxSubWindows) {
    this.maxSubWindows = maxSubWindows;
  }

  /**
   * Counts a start of sub-window {@code sub} at {@code nowMillis} if its limit and the capacity
   * allow; otherwise says when to try again.
   */
  public WindowCounts.Grant acquire(String sub, long nowMillis, WindowOptions options) {
    long bucket = options.bucket().toMillis();
    int buckets = options.buckets();
    refreshActivity(nowMillis, bucket, buckets);
    Sub window = subs.get(sub);
    if (window == null) {
      if (subs.size() >= maxSubWindows && !evictIdle()) {
        return new WindowCounts.Grant(false, -1, earliestIdle(bucket, buckets));
      }
      window = new Sub(new WindowCounts());
      subs.put(sub, window);
    }
    int limit = limitOf(sub, options);
    int own = window.counts.count(nowMillis, bucket, buckets);
    if (own >= limit) {
      long opens = window.counts.opensAt(nowMillis, limit, bucket, buckets);
      return new WindowCounts.Grant(false, -1, opens);
    }
    if (options.capacity() > 0) {
      TreeMap<Long, Integer> all = new TreeMap<>();
      int total = 0;
      for (Sub s : subs.values()) {
        total += s.counts.count(nowMillis, bucket, buckets);
        WindowCounts.addInto(all, s.counts);
      }
      if (total >= options.capacity()) {
        long opens =
            WindowCounts.opensAt(all, total, nowMillis, options.capacity(), bucket, buckets);
        return new WindowCounts.Grant(false, -1, opens);
      }
    }
    WindowCounts.Grant grant = window.counts.acquire(nowMillis, limit, bucket, buckets);
    if (window.activeSince < 0) {
      window.activeSince = nowMillis;
    }
    return grant;
  }

  /**
   * Counts {@code count} starts of {@code sub} in the bucket starting at {@code bucketStart}, as
   * read back after a restart; a sub-window counted again is active since that bucket.
   */
  public void restore(String sub, long bucketStart, int count) {
    Sub window = subs.computeIfAbsent(sub, s -> new Sub(new WindowCounts()));
    window.counts.add(bucketStart, count);
    if (window.activeSince < 0 || window.activeSince > bucketStart) {
      window.activeSince = bucketStart;
    }
  }

  /** Gives back a start counted in {@code bucketStart} of {@code sub} that never ran. */
  public void giveBack(String sub, long bucketStart) {
    Sub window = subs.get(sub);
    if (window != null) {
      window.counts.add(bucketStart, -1);
    }
  }

  /**
   * The limit of sub-window {@code sub} as things stand: {@code options.limit()} without
   * rebalancing; with it, its share of the capacity among the active sub-windows (counting {@code
   * sub} as active).
   */
  public int limitOf(String sub, WindowOptions options) {
    if (!options.isRebalanced()) {
      return options.limit();
    }
    List<String> active = active();
    int rank = active.indexOf(sub);
    if (rank < 0) {
      rank = active.size();
    }
    int n = Math.max(active.size(), rank + 1);
    int share = options.capacity() / n + (rank < options.capacity() % n ? 1 : 0);
    return Math.max(options.minLimit(), Math.min(options.maxLimit(), share));
  }

  /** The active sub-windows, earliest active first. */
  public List<String> active() {
    List<Map.Entry<String, Sub>> entries = new ArrayList<>();
    for (Map.Entry<String, Sub> e : subs.entrySet()) {
      if (e.getValue().activeSince >= 0) {
        entries.add(e);
      }
    }
    entries.sort((a, b) -> Long.compare(a.getValue().activeSince, b.getValue().activeSince));
    List<String> ids = new ArrayList<>(entries.size());
    entries.forEach(e -> ids.add(e.getKey()));
    return ids;
  }

  /** The sub-windows kept and their starts in the interval of {@code nowMillis}. */
  public Map<String, Integer> counts(long nowMillis, WindowOptions options) {
    long bucket = options.bucket().toMillis();
    Map<String, Integer> view = new LinkedHashMap<>();
    subs.forEach((id, s) -> view.put(id, s.counts.count(nowMillis, bucket, options.buckets())));
    return Collections.unmodifiableMap(view);
  }

  /** How many sub-windows are kept. */
  public int size() {
    return subs.size();
  }

  private void refreshActivity(long nowMillis, long bucket, int buckets) {
    for (Sub s : subs.values()) {
      if (s.activeSince >= 0 && s.counts.isIdle(nowMillis, bucket, buckets)) {
        s.activeSince = -1;
      }
    }
  }

  private boolean evictIdle() {
    String idlest = null;
    long oldest = Long.MAX_VALUE;
    for (Map.Entry<String, Sub> e : subs.entrySet()) {
      Sub s = e.getValue();
      if (s.activeSince < 0 && s.counts.lastBucket() < oldest) {
        oldest = s.counts.lastBucket();
        idlest = e.getKey();
      }
    }
    if (idlest == null) {
      return false;
    }
    subs.remove(idlest);
    return true;
  }

  private long earliestIdle(long bucket, int buckets) {
    long earliest = Long.MAX_VALUE;
    for (Sub s : subs.values()) {
      earliest = Math.min(earliest, s.counts.lastBucket() + bucket * buckets);
    }
    return earliest;
  }

  /** Writes the sub-windows to {@code out}, for {@link #readFrom}. */
  public void writeTo(DataOutput out) throws IOException {
    out.writeInt(maxSubWindows);
    out.writeInt(subs.size());
    for (Map.Entry<String, Sub> e : subs.entrySet()) {
      out.writeUTF(e.getKey());
      out.writeLong(e.getValue().activeSince);
      e.getValue().counts.writeTo(out);
    }
  }

  /** The sub-windows {@link #writeTo} wrote. */
  public static DynamicWindowState readFrom(DataInput in) throws IOException {
    DynamicWindowState state = new DynamicWindowState(in.readInt());
    for (int n = in.readInt(); n > 0; n--) {
      String id = in.readUTF();
      long activeSince = in.readLong();
      Sub sub = new Sub(WindowCounts.readFrom(in));
      sub.activeSince = activeSince;
      state.subs.put(id, sub);
    }
    return state;
  }
}
