package io.taskgate.engine.event;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Lets one log line per subject through per interval and counts the ones held back, so that a
 * problem repeated by every task is logged once a minute rather than once a task. Thread-safe;
 * holds one entry per subject, so subjects must be few (task types, not keys).
 */
public final class LogThrottle {
  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private final Map<String, State> subjects = new ConcurrentHashMap<>();

  /**
   * @param interval at most one line per subject this often
   * @param nanoTime a monotonic clock ({@code System::nanoTime})
   */
  public LogThrottle(Duration interval, LongSupplier nanoTime) {
    this.intervalNanos = interval.toNanos();
    this.nanoTime = nanoTime;
  }

  /**
   * Whether to log now for {@code subject}: -1 to hold this line back, otherwise how many lines
   * were held back since the last one let through.
   */
  public long admit(String subject) {
    long now = nanoTime.getAsLong();
    long[] admitted = {-1};
    subjects.compute(
        subject,
        (k, state) -> {
          if (state == null || now - state.lastNanos >= intervalNanos) {
            admitted[0] = state == null ? 0 : state.held;
            return new State(now, 0);
          }
          return new State(state.lastNanos, state.held + 1);
        });
    return admitted[0];
  }

  /** The suffix telling how many lines were held back, empty when none. */
  public static String heldBack(long held) {
    return held > 0 ? " (" + held + " more like this since the last one logged)" : "";
  }

  private record State(long lastNanos, long held) {}
}
