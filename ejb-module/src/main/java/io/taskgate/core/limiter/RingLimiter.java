package io.taskgate.core.limiter;

/**
 * A limiter that decides on a {@link SegmentRing}: the fixed window (one segment) and the sliding
 * window (several) differ only in their ring's shape and their refusal's words.
 */
abstract class RingLimiter extends CasLimiter<SegmentRing.Segments> {

  private final SegmentRing ring;

  RingLimiter(SegmentRing ring) {
    super(ring.empty(), ring.permitLimit());
    this.ring = ring;
  }

  @Override
  final Verdict<SegmentRing.Segments> decide(
      SegmentRing.Segments state, int permits, long nowNanos) {
    return ring.decide(state, permits, nowNanos);
  }

  @Override
  final int available(SegmentRing.Segments state, long nowNanos) {
    return ring.available(state, nowNanos);
  }

  @Override
  final boolean idle(SegmentRing.Segments state, long nowNanos) {
    return ring.idle(state, nowNanos);
  }
}
