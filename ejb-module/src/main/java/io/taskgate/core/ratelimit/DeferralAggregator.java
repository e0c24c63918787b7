package io.taskgate.core.ratelimit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a stream of deferrals into few reports, so that sustained throttling never becomes a storm
 * of events. Per (scope, key), time is cut into windows: a deferral with no open window opens one
 * and is reported at once; the deferrals after it in the same window are counted, and reported
 * together by one summary when the window has ended (by {@link #drain}, or by the next {@link
 * #record} of that key). A window without further deferrals ends without a summary.
 *
 * <p>Memory holds only the keys with an open window: a window is forgotten once it has ended and
 * been reported. Thread-safe (one atomic update per key); the current time is an argument.
 */
public final class DeferralAggregator {
  private final long windowNanos;
  private final Map<ScopedKey, Window> windows = new ConcurrentHashMap<>();

  /**
   * @param windowNanos the window's length, positive
   */
  public DeferralAggregator(long windowNanos) {
    if (windowNanos <= 0) {
      throw new IllegalArgumentException("windowNanos must be positive, was " + windowNanos);
    }
    this.windowNanos = windowNanos;
  }

  /**
   * Records that {@code taskId} was deferred to {@code slot}. Returns what to report now: the
   * deferral itself when it opens a window, preceded by the summary of the key's previous window if
   * that has ended unreported; otherwise nothing.
   */
  public List<DeferralReport> record(
      UUID taskId, String scope, String key, long slotEpochNanos, long nowEpochNanos) {
    List<DeferralReport> reports = new ArrayList<>(1);
    windows.compute(
        new ScopedKey(scope, key),
        (k, open) -> {
          if (open != null && ended(open, nowEpochNanos)) {
            summarize(k, open, reports);
            open = null;
          }
          if (open == null) {
            reports.add(
                new DeferralReport(
                    taskId, scope, key, slotEpochNanos, 1, false, nowEpochNanos, windowNanos));
            return new Window(nowEpochNanos, 0, null, 0);
          }
          return new Window(open.start, open.pending + 1, taskId, slotEpochNanos);
        });
    return reports;
  }

  /** The summaries of the windows that have ended by {@code now}; forgets those windows. */
  public List<DeferralReport> drain(long nowEpochNanos) {
    List<DeferralReport> reports = new ArrayList<>();
    for (ScopedKey key : windows.keySet()) {
      windows.computeIfPresent(
          key,
          (k, open) -> {
            if (!ended(open, nowEpochNanos)) {
              return open;
            }
            summarize(k, open, reports);
            return null;
          });
    }
    return reports;
  }

  /** Keys with an open window (what this aggregator holds in memory). */
  public int openWindows() {
    return windows.size();
  }

  private boolean ended(Window window, long now) {
    return now - window.start >= windowNanos;
  }

  private void summarize(ScopedKey key, Window window, List<DeferralReport> reports) {
    if (window.pending > 0) {
      reports.add(
          new DeferralReport(
              window.lastTaskId,
              key.scope,
              key.key,
              window.lastSlot,
              window.pending,
              true,
              window.start,
              windowNanos));
    }
  }

  private record ScopedKey(String scope, String key) {}

  /** An open window: when it opened, the deferrals since the first, and the last of them. */
  private record Window(long start, long pending, UUID lastTaskId, long lastSlot) {}
}
