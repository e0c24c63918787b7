package io.taskgate.core.limiter;

import java.util.Arrays;

/**
 * At most {@code permitLimit} permits in the current segment plus the {@code segmentsPerWindow - 1}
 * segments before it. Segments are aligned to multiples of the segment length on the caller's
 * timeline. A refusal's retry-after is the time until enough of the oldest segments have slid out
 * of the window.
 *
 * <p>Bounds, proved in the property tests: any {@code segmentsPerWindow} consecutive aligned
 * segments (a window-long interval starting on a segment boundary) hold at most {@code permitLimit}
 * grants, and so does any closed interval of length {@code window - segment}. An arbitrary interval
 * of length {@code window} may hold more (up to {@code 2 * permitLimit} with one segment).
 *
 * <p>Permits are consumed, not held: in a {@link ChainedLimiter} that refuses later on they stay
 * counted until their segment slides out.
 */
public final class SlidingWindowLimiter extends CasLimiter<SlidingWindowLimiter.Segments> {

  /**
   * Grants per segment in a ring indexed by {@code floorMod(segmentIndex, segments)}, for the
   * window ending with segment {@code index}; {@code total} is their sum. Never mutated once
   * published.
   */
  record Segments(long index, int[] counts, int total) {}

  private static final long UNSET = Long.MIN_VALUE;

  private final int permitLimit;
  private final int segments;
  private final long segmentNanos;

  public SlidingWindowLimiter(SlidingWindowLimiterOptions options) {
    super(new Segments(UNSET, new int[options.segmentsPerWindow()], 0), options.permitLimit());
    this.permitLimit = options.permitLimit();
    this.segments = options.segmentsPerWindow();
    this.segmentNanos = options.segmentNanos();
  }

  private int slot(long segmentIndex) {
    return (int) Math.floorMod(segmentIndex, (long) segments);
  }

  /** The state slid forward to the segment of {@code nowNanos}; may return {@code state}. */
  private Segments slide(Segments state, long nowNanos) {
    long index = Math.floorDiv(nowNanos, segmentNanos);
    if (index <= state.index()) {
      return state;
    }
    if (state.index() == UNSET || index - state.index() >= segments) {
      return new Segments(index, new int[segments], 0);
    }
    int[] counts = state.counts().clone();
    int total = state.total();
    for (long expired = state.index() + 1; expired <= index; expired++) {
      total -= counts[slot(expired)];
      counts[slot(expired)] = 0;
    }
    return new Segments(index, counts, total);
  }

  @Override
  Verdict<Segments> decide(Segments state, int permits, long nowNanos) {
    Segments window = slide(state, nowNanos);
    if (window.total() + permits <= permitLimit) {
      int[] counts = Arrays.copyOf(window.counts(), segments);
      counts[slot(window.index())] += permits;
      return Verdict.grant(new Segments(window.index(), counts, window.total() + permits));
    }
    // Segment index - segments + k leaves the window when segment index + k begins.
    int needed = window.total() + permits - permitLimit;
    int freed = 0;
    long retryAfter = 0;
    for (int k = 1; k <= segments; k++) {
      freed += window.counts()[slot(window.index() - segments + k)];
      if (freed >= needed) {
        retryAfter = (window.index() + k) * segmentNanos - nowNanos;
        break;
      }
    }
    return Verdict.refuse(
        retryAfter,
        "sliding window limit reached: "
            + window.total()
            + " of "
            + permitLimit
            + " permits granted in the window, "
            + permits
            + " requested");
  }

  @Override
  int available(Segments state, long nowNanos) {
    return permitLimit - slide(state, nowNanos).total();
  }

  @Override
  boolean idle(Segments state, long nowNanos) {
    return slide(state, nowNanos).total() == 0;
  }
}
