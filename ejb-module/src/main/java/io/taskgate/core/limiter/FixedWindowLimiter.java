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
public final class FixedWindowLimiter extends RingLimiter {

  public FixedWindowLimiter(FixedWindowLimiterOptions options) {
    super(
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
}
