package io.taskgate.engine.throttle.jobs;

import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.store.ThrottlerRecord;
import io.taskgate.store.ThrottlerStore;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The windows' starts as the store keeps them: each start is stored before its task runs, so that a
 * restart reads the counts back and lets no burst through.
 */
final class WindowCountLog {
  private static final Logger LOG = Logger.getLogger(WindowCountLog.class.getName());

  private final ThrottlerStore store;

  WindowCountLog(ThrottlerStore store) {
    this.store = store;
  }

  /**
   * A start was counted in (or, {@code delta} -1, given back to) window {@code resource}. A failure
   * to store is logged; the count in memory stands.
   */
  void counted(String resource, String sub, long bucketStart, int delta) {
    try {
      store.addCount(resource, sub, bucketStart, delta);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate could not store a start of " + resource + "; a restart may not count it",
          e);
    }
  }

  /**
   * Drops the counts stored for buckets out of every window of {@code definitions} (older than the
   * longest interval, at least a day when none is), and if {@code restore} reads the others back
   * into {@code state}.
   */
  void restore(
      List<ThrottlerRecord> definitions, long nowMillis, boolean restore, ThrottlerState state) {
    long longest = Duration.ofDays(1).toMillis();
    for (ThrottlerRecord record : definitions) {
      longest = Math.max(longest, record.intervalMillis());
    }
    store.dropCounts(nowMillis - longest);
    if (!restore) {
      return;
    }
    for (ThrottlerStore.WindowCount count : store.counts(nowMillis - longest)) {
      state.restore(count.resource(), count.sub(), count.bucketStart(), count.count());
    }
  }
}
