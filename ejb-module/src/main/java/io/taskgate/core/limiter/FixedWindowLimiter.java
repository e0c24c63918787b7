package io.taskgate.core.limiter;

/**
 * At most {@code permitLimit} permits per fixed window. Windows are aligned to multiples of the
 * window length on the caller's timeline ({@code [k * window, (k + 1) * window)}), so with epoch
 * nanoseconds a one-minute window is a wall-clock minute. A refusal's retry-after is the time to
 * the next window. Two adjacent windows can together grant {@code 2 * permitLimit} within a short
 * span; use {@link SlidingWindowLimiter} or {@link SlidingLogLimiter} when that matters.
 *
 * <p>Permits are consumed, not held: in a {@link ChainedLimiter} that refuses later on they stay
 * spent until the window ends.
 */
public final class FixedWindowLimiter extends CasLimiter<FixedWindowLimiter.Window> {

  /** The permits granted in window number {@code index}. */
  record Window(long index, int granted) {}

  private final int permitLimit;
  private final long windowNanos;

  public FixedWindowLimiter(FixedWindowLimiterOptions options) {
    super(new Window(Long.MIN_VALUE, 0), options.permitLimit());
    this.permitLimit = options.permitLimit();
    this.windowNanos = options.windowNanos();
  }

  private Window current(Window window, long nowNanos) {
    long index = Math.floorDiv(nowNanos, windowNanos);
    return index <= window.index() ? window : new Window(index, 0);
  }

  @Override
  Verdict<Window> decide(Window state, int permits, long nowNanos) {
    Window window = current(state, nowNanos);
    if (window.granted() + permits <= permitLimit) {
      return Verdict.grant(new Window(window.index(), window.granted() + permits));
    }
    return Verdict.refuse(
        (window.index() + 1) * windowNanos - nowNanos,
        "fixed window limit reached: "
            + window.granted()
            + " of "
            + permitLimit
            + " permits granted in this window, "
            + permits
            + " requested");
  }

  @Override
  int available(Window state, long nowNanos) {
    return permitLimit - current(state, nowNanos).granted();
  }

  @Override
  boolean idle(Window state, long nowNanos) {
    return current(state, nowNanos).granted() == 0;
  }
}
