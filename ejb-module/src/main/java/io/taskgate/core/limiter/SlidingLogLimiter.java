package io.taskgate.core.limiter;

import java.time.Duration;

/**
 * The strict limiter: never more than {@code permitLimit} permits in any half-open interval {@code
 * [s, s + window)}, wherever it starts. It remembers the times of the last {@code permitLimit}
 * permits in a ring buffer (one entry per permit); a request for {@code n} permits at {@code t} is
 * granted iff the {@code (permitLimit - n + 1)}-th most recent entry is at or before {@code t -
 * window}, and otherwise may retry when that entry leaves the window. Each permit so "occupies" the
 * window for exactly {@code window} nanos; at {@code s + window} the permits of {@code s} are free
 * again.
 *
 * <p>Each grant copies the ring (the state is immutable), so memory and time per grant are
 * O(permitLimit): fit for limits up to a few thousand. Permits are consumed, not held: in a {@link
 * ChainedLimiter} that refuses later on they stay in the log until they age out.
 */
public final class SlidingLogLimiter extends CasLimiter<SlidingLogLimiter.Log> {

  /**
   * The last {@code size} grant times ({@code size <= ring.length}), oldest first from {@code (next
   * - size) mod length}; {@code next} is where the next time is written. Never mutated once
   * published.
   */
  record Log(long[] ring, int next, int size) {

    /** The {@code k}-th most recent time, {@code 1 <= k <= size}. */
    long recent(int k) {
      return ring[Math.floorMod(next - k, ring.length)];
    }
  }

  private final int permitLimit;
  private final long windowNanos;

  public SlidingLogLimiter(SlidingLogLimiterOptions options) {
    super(new Log(new long[options.permitLimit()], 0, 0), options.permitLimit());
    this.permitLimit = options.permitLimit();
    this.windowNanos = options.windowNanos();
  }

  /** The effective time: never before the newest recorded grant. */
  private static long effective(Log log, long nowNanos) {
    return log.size() == 0 ? nowNanos : Math.max(nowNanos, log.recent(1));
  }

  @Override
  Verdict<Log> decide(Log log, int permits, long nowNanos) {
    long t = effective(log, nowNanos);
    int k = permitLimit - permits + 1;
    if (log.size() < k || t - log.recent(k) >= windowNanos) {
      long[] ring = log.ring().clone();
      int next = log.next();
      for (int i = 0; i < permits; i++) {
        ring[next] = t;
        next = (next + 1) % ring.length;
      }
      return Verdict.grant(new Log(ring, next, Math.min(permitLimit, log.size() + permits)));
    }
    return Verdict.refuse(
        log.recent(k) + windowNanos - nowNanos,
        "sliding log limit reached: "
            + inWindow(log, t)
            + " of "
            + permitLimit
            + " permits granted in the last "
            + Duration.ofNanos(windowNanos)
            + ", "
            + permits
            + " requested");
  }

  private int inWindow(Log log, long t) {
    int count = 0;
    while (count < log.size() && t - log.recent(count + 1) < windowNanos) {
      count++;
    }
    return count;
  }

  @Override
  int available(Log log, long nowNanos) {
    return permitLimit - inWindow(log, effective(log, nowNanos));
  }

  @Override
  boolean idle(Log log, long nowNanos) {
    return inWindow(log, effective(log, nowNanos)) == 0;
  }
}
