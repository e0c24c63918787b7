package io.taskgate.core.ratelimit;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The key cap shared by every shard of one limiter: how many keys may be tracked, how many are, and
 * how many new keys were let through untracked because the cap was reached. Thread-safe.
 */
public final class TrackedKeys {
  private final int max;
  private final AtomicInteger tracked = new AtomicInteger();
  private final AtomicLong untracked = new AtomicLong();

  /**
   * @param max the most keys tracked at once, at least 1
   */
  public TrackedKeys(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("maxTrackedKeys must be at least 1, was " + max);
    }
    this.max = max;
  }

  /** Claims room for one more key; false when the cap is reached. */
  boolean tryTrack() {
    int n;
    do {
      n = tracked.get();
      if (n >= max) {
        return false;
      }
    } while (!tracked.compareAndSet(n, n + 1));
    return true;
  }

  void forget(int keys) {
    tracked.addAndGet(-keys);
  }

  void countUntracked() {
    untracked.incrementAndGet();
  }

  /** The cap. */
  public int max() {
    return max;
  }

  /** Keys tracked now. */
  public int tracked() {
    return tracked.get();
  }

  /** New keys let through untracked since the start (the fail-open count). */
  public long untrackedDecisions() {
    return untracked.get();
  }
}
