package io.taskgate.core.window;

/**
 * The rule of a bucketed window. Time, in the caller's unit and on the caller's timeline (epoch
 * milliseconds, a ticker's nanoseconds), is cut into buckets of {@code bucketLength} aligned on
 * zero; the interval of a time is its bucket and the {@code buckets - 1} before it (one bucket: a
 * fixed window). A grant counts in its bucket, so in every interval that bucket belongs to.
 *
 * <ul>
 *   <li>{@code permits} more fit while the interval's count plus them is at most the limit ({@link
 *       #fits}).
 *   <li>A bucket leaves the interval {@code buckets * bucketLength} after it starts ({@link
 *       #leavesAt}), so a full interval opens when enough of its oldest buckets have left it:
 *       walking the counted buckets oldest first, at the leaving of the first one by which the
 *       counts left behind make room ({@link #opensAt}).
 * </ul>
 *
 * <p>The rule keeps no counts: {@code core.throttle.WindowCounts} keeps them in a map of bucket
 * starts, {@code core.limiter.SlidingWindowLimiter} in an immutable ring. Sums are {@code long}, so
 * a count near {@link Integer#MAX_VALUE} plus the permits does not wrap around.
 *
 * @param bucketLength the length of a bucket, at least 1, in the caller's unit
 * @param buckets the buckets of an interval, at least 1
 */
public record WindowRule(long bucketLength, int buckets) {

  public WindowRule {
    if (bucketLength < 1) {
      throw new IllegalArgumentException("bucketLength must be >= 1, was " + bucketLength);
    }
    if (buckets < 1) {
      throw new IllegalArgumentException("buckets must be >= 1, was " + buckets);
    }
  }

  /** The counted buckets of an interval, oldest first; empty ones may be left out. */
  public interface Counts {
    int size();

    /** The start of the {@code i}-th bucket, oldest first. */
    long start(int i);

    /** What the {@code i}-th bucket holds. */
    int count(int i);

    /**
     * The buckets starting at {@code starts}, holding {@code counts}; the arrays are not copied.
     */
    static Counts of(long[] starts, int[] counts) {
      return new Counts() {
        @Override
        public int size() {
          return starts.length;
        }

        @Override
        public long start(int i) {
          return starts[i];
        }

        @Override
        public int count(int i) {
          return counts[i];
        }
      };
    }
  }

  /** The number of the bucket holding {@code now}: {@code floor(now / bucketLength)}. */
  public long index(long now) {
    return Math.floorDiv(now, bucketLength);
  }

  /** The start of the bucket holding {@code now}. */
  public long bucketStart(long now) {
    return index(now) * bucketLength;
  }

  /** The start of the oldest bucket of the interval of {@code now}. */
  public long intervalStart(long now) {
    return bucketStart(now) - (buckets - 1L) * bucketLength;
  }

  /** When the bucket starting at {@code bucketStart} leaves the interval. */
  public long leavesAt(long bucketStart) {
    return bucketStart + buckets * bucketLength;
  }

  /** Whether {@code permits} more fit in an interval holding {@code counted}. */
  public static boolean fits(long counted, int permits, int limit) {
    return counted + permits <= limit;
  }

  /**
   * The earliest time from {@code now} at which {@code permits} more fit in the interval, which
   * holds {@code counted} in {@code oldestFirst}: {@code now} if they fit now, else when enough of
   * the oldest buckets have left it. If even all of them leaving is not enough (a limit below the
   * permits), when the bucket of {@code now} leaves.
   */
  public long opensAt(long now, long counted, int permits, int limit, Counts oldestFirst) {
    if (fits(counted, permits, limit)) {
      return now;
    }
    long needed = counted + permits - limit;
    long freed = 0;
    for (int i = 0; i < oldestFirst.size(); i++) {
      freed += oldestFirst.count(i);
      if (freed >= needed) {
        return leavesAt(oldestFirst.start(i));
      }
    }
    return leavesAt(bucketStart(now));
  }
}
