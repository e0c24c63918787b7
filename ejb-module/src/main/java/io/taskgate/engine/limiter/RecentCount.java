package io.taskgate.engine.limiter;

/**
 * How many times something happened in the last minute, in one-second buckets: a ring of 60 counts,
 * each stamped with its second. Thread safe; {@link #add} takes a lock, so it belongs on slow paths
 * (refusals), not on every call.
 */
final class RecentCount {
  private static final long SECOND = 1_000_000_000L;
  private static final int SECONDS = 60;

  private final long[] seconds = new long[SECONDS];
  private final long[] counts = new long[SECONDS];

  RecentCount() {
    java.util.Arrays.fill(seconds, Long.MIN_VALUE);
  }

  synchronized void add(long nowNanos) {
    long second = Math.floorDiv(nowNanos, SECOND);
    int slot = (int) Math.floorMod(second, SECONDS);
    if (seconds[slot] != second) {
      seconds[slot] = second;
      counts[slot] = 0;
    }
    counts[slot]++;
  }

  /** The count of the last 60 seconds, this one included. */
  synchronized long lastMinute(long nowNanos) {
    long now = Math.floorDiv(nowNanos, SECOND);
    long sum = 0;
    for (int i = 0; i < SECONDS; i++) {
      if (seconds[i] != Long.MIN_VALUE && now - seconds[i] < SECONDS && now >= seconds[i]) {
        sum += counts[i];
      }
    }
    return sum;
  }
}
