package io.taskgate.core.limiter;

import io.taskgate.core.window.WindowRule;

/**
 * At most {@code permitLimit} permits in the current segment plus the {@code segmentsPerWindow - 1}
 * segments before it. Segments are aligned to multiples of the segment length on the caller's
 * timeline. A refusal's retry-after is the time until enough of the oldest segments have slid out
 * of the window. The rule is {@link WindowRule}'s, with segments as its buckets, over an immutable
 * ring of counts ({@code SegmentRing}).
 *
 * <p>Bounds, proved in the property tests: any {@code segmentsPerWindow} consecutive aligned
 * segments (a window-long interval starting on a segment boundary) hold at most {@code permitLimit}
 * grants, and so does any closed interval of length {@code window - segment}. An arbitrary interval
 * of length {@code window} may hold more (up to {@code 2 * permitLimit} with one segment).
 *
 * <p>Permits are consumed, not held: in a {@link ChainedLimiter} that refuses later on they stay
 * counted until their segment slides out.
 */
public final class SlidingWindowLimiter extends RingLimiter {

  public SlidingWindowLimiter(SlidingWindowLimiterOptions options) {
    super(
        new SegmentRing(
            options.permitLimit(),
            options.segmentNanos(),
            options.segmentsPerWindow(),
            (granted, permits) ->
                "sliding window limit reached: "
                    + granted
                    + " of "
                    + options.permitLimit()
                    + " permits granted in the window, "
                    + permits
                    + " requested"));
  }
}
