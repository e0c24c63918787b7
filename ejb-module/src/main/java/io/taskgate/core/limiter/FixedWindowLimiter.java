package io.taskgate.core.limiter;

/**
 * At most {@code permitLimit} permits per fixed window. Windows are aligned to multiples of the
 * window length on the caller's timeline ({@code [k * window, (k + 1) * window)}), so with epoch
 * nanoseconds a one-minute window is a wall-clock minute. A refusal's retry-after is the time to
 * the next window. Two adjacent windows can together grant {@code 2 * permitLimit} within a short
 * span; use {@link SlidingWindowLimiter} or {@link SlidingLogLimiter} when that matters.
 *
 * <p>It is the one-segment {@link SlidingWindowLimiter}: the same ring of counts and the same
 * {@link io.taskgate.core.window.WindowRule}, with its own refusal.
 *
 * <p>Permits are consumed, not held: in a {@link ChainedLimiter} that refuses later on they stay
 * spent until the window ends.
 */
public final class FixedWindowLimiter extends CasLimiter<SegmentRing.Segments> {

  private final SegmentRing ring;

  public FixedWindowLimiter(FixedWindowLimiterOptions options) {
    this(
        new SegmentRing(
            options.permitLimit(),
            options.windowNanos(),
            1,
            (granted, permits) ->
                "fixed window limit reached: "
                    + granted
                    + " of "
                    + options.permitLimit()
                    + " permits granted in this window, "
                    + permits
                    + " requested"));
  }

  private FixedWindowLimiter(SegmentRing ring) {
    super(ring.empty(), ring.permitLimit());
    this.ring = ring;
  }

  @Override
  Verdict<SegmentRing.Segments> decide(SegmentRing.Segments state, int permits, long nowNanos) {
    return ring.decide(state, permits, nowNanos);
  }

  @Override
  int available(SegmentRing.Segments state, long nowNanos) {
    return ring.available(state, nowNanos);
  }

  @Override
  boolean idle(SegmentRing.Segments state, long nowNanos) {
    return ring.idle(state, nowNanos);
  }
}
