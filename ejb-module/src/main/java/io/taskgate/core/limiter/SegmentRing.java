package io.taskgate.core.limiter;

import io.taskgate.core.window.WindowRule;
import java.util.Arrays;

/**
 * A window's grants per segment in an immutable ring, following {@link WindowRule} with segments as
 * its buckets: the state and decision of a {@link SlidingWindowLimiter}, and with one segment of a
 * {@link FixedWindowLimiter}. Each limiter words its own refusals.
 */
final class SegmentRing {

  /**
   * Grants per segment in a ring indexed by {@code floorMod(segmentIndex, segments)}, for the
   * window ending with segment {@code index}; {@code total} is their sum. Never mutated once
   * published.
   */
  record Segments(long index, int[] counts, int total) {}

  /** The reason of a refusal: {@code granted} permits in the window, {@code permits} asked. */
  interface Refusal {
    String reason(int granted, int permits);
  }

  private static final long UNSET = Long.MIN_VALUE;

  private final int permitLimit;
  private final int segments;
  private final long segmentNanos;
  private final WindowRule rule;
  private final Refusal refusal;

  SegmentRing(int permitLimit, long segmentNanos, int segments, Refusal refusal) {
    this.permitLimit = permitLimit;
    this.segments = segments;
    this.segmentNanos = segmentNanos;
    this.rule = new WindowRule(segmentNanos, segments);
    this.refusal = refusal;
  }

  /** The state before any grant. */
  Segments empty() {
    return new Segments(UNSET, new int[segments], 0);
  }

  int permitLimit() {
    return permitLimit;
  }

  private int slot(long segmentIndex) {
    return (int) Math.floorMod(segmentIndex, (long) segments);
  }

  /** The state slid forward to the segment of {@code nowNanos}; may return {@code state}. */
  private Segments slide(Segments state, long nowNanos) {
    long index = rule.index(nowNanos);
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

  CasLimiter.Verdict<Segments> decide(Segments state, int permits, long nowNanos) {
    Segments window = slide(state, nowNanos);
    if (WindowRule.fits(window.total(), permits, permitLimit)) {
      int[] counts = Arrays.copyOf(window.counts(), segments);
      counts[slot(window.index())] += permits;
      return CasLimiter.Verdict.grant(
          new Segments(window.index(), counts, window.total() + permits));
    }
    long opensAt =
        rule.opensAt(nowNanos, window.total(), permits, permitLimit, oldestFirst(window));
    return CasLimiter.Verdict.refuse(opensAt - nowNanos, refusal.reason(window.total(), permits));
  }

  /** The segments of {@code window}'s interval, oldest first: index - segments + 1 to index. */
  private WindowRule.Counts oldestFirst(Segments window) {
    long first = window.index() - segments + 1;
    return new WindowRule.Counts() {
      @Override
      public int size() {
        return segments;
      }

      @Override
      public long start(int i) {
        return (first + i) * segmentNanos;
      }

      @Override
      public int count(int i) {
        return window.counts()[slot(first + i)];
      }
    };
  }

  int available(Segments state, long nowNanos) {
    return permitLimit - slide(state, nowNanos).total();
  }

  boolean idle(Segments state, long nowNanos) {
    return slide(state, nowNanos).total() == 0;
  }
}
