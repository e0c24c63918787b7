package io.taskgate.core.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The bounds each limiter promises, checked over random arrival sequences on a hand-moved clock in
 * milliseconds. Every refusal's retry-after is also checked to be exact: the same request is
 * granted at {@code now + retryAfter} and refused one nanosecond earlier.
 */
class LimiterBoundsPropertyTest {

  private static final long MS = 1_000_000L;

  /** A request arriving {@code gapNanos} after the previous one. */
  record Arrival(long gapNanos, int permits) {}

  /** A granted request. */
  record Grant(long atNanos, int permits) {}

  @Provide
  Arbitrary<List<Arrival>> arrivals() {
    Arbitrary<Long> gapMs =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just(0L)),
            Tuple.of(6, Arbitraries.longs().between(1, 40)),
            Tuple.of(1, Arbitraries.longs().between(41, 2_000)));
    Arbitrary<Integer> permits =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just(1)),
            Tuple.of(2, Arbitraries.integers().between(2, 4)),
            Tuple.of(1, Arbitraries.just(0)));
    return Combinators.combine(gapMs, permits)
        .as((gap, n) -> new Arrival(gap * MS, n))
        .list()
        .ofMinSize(1)
        .ofMaxSize(150);
  }

  /** Feeds the arrivals from {@code originMs}, checking every retry-after; returns the grants. */
  private static List<Grant> run(RateLimiter limiter, long originMs, List<Arrival> arrivals) {
    List<Grant> grants = new ArrayList<>();
    long now = originMs * MS;
    for (Arrival arrival : arrivals) {
      now += arrival.gapNanos();
      int permits = Math.min(arrival.permits(), limiter.permitLimit());
      RateLimitLease lease = limiter.tryAcquire(permits, now);
      if (lease.isAcquired()) {
        if (permits > 0) {
          grants.add(new Grant(now, permits));
        }
      } else if (lease.retryAfterNanos().isPresent()) {
        long retryAfter = lease.retryAfterNanos().getAsLong();
        assertThat(retryAfter).isPositive();
        assertThat(limiter.probe(permits, now + retryAfter).isAcquired())
            .as("granted after the retry-after of %s", lease)
            .isTrue();
        assertThat(limiter.probe(permits, now + retryAfter - 1).isAcquired())
            .as("refused just before the retry-after of %s", lease)
            .isFalse();
      }
    }
    return grants;
  }

  /** The most permits granted at times {@code t} with {@code inWindow(start, t)} for a start. */
  private static int maxInWindows(List<Grant> grants, WindowTest inWindow) {
    int max = 0;
    for (Grant start : grants) {
      int sum = 0;
      for (Grant g : grants) {
        if (inWindow.contains(start.atNanos(), g.atNanos())) {
          sum += g.permits();
        }
      }
      max = Math.max(max, sum);
    }
    return max;
  }

  interface WindowTest {
    boolean contains(long startNanos, long atNanos);
  }

  /** Closed intervals {@code [s, s + length]}; the worst one starts at a grant. */
  private static int maxInClosedInterval(List<Grant> grants, long lengthNanos) {
    return maxInWindows(grants, (s, t) -> t >= s && t - s <= lengthNanos);
  }

  /** Half-open intervals {@code [s, s + length)}; the worst one starts at a grant. */
  private static int maxInHalfOpenInterval(List<Grant> grants, long lengthNanos) {
    return maxInWindows(grants, (s, t) -> t >= s && t - s < lengthNanos);
  }

  /** Bound: at most {@code permitLimit} permits in every half-open interval of length window. */
  @Property
  void slidingLogNeverExceedsTheLimitInAnyWindow(
      @ForAll @IntRange(min = 1, max = 6) int permitLimit,
      @ForAll @LongRange(min = 1, max = 500) long windowMs,
      @ForAll @LongRange(min = -5_000, max = 5_000) long originMs,
      @ForAll("arrivals") List<Arrival> arrivals) {
    var limiter =
        new SlidingLogLimiter(
            new SlidingLogLimiterOptions(permitLimit, Duration.ofMillis(windowMs)));

    List<Grant> grants = run(limiter, originMs, arrivals);

    assertThat(maxInHalfOpenInterval(grants, windowMs * MS)).isLessThanOrEqualTo(permitLimit);
  }

  /** The sliding log is exact: it grants iff the window {@code (t - M, t]} has room. */
  @Property
  void slidingLogGrantsExactlyWhenTheWindowHasRoom(
      @ForAll @IntRange(min = 1, max = 6) int permitLimit,
      @ForAll @LongRange(min = 1, max = 500) long windowMs,
      @ForAll("arrivals") List<Arrival> arrivals) {
    var limiter =
        new SlidingLogLimiter(
            new SlidingLogLimiterOptions(permitLimit, Duration.ofMillis(windowMs)));
    long window = windowMs * MS;
    List<Grant> grants = new ArrayList<>();
    long now = 0;
    for (Arrival arrival : arrivals) {
      now += arrival.gapNanos();
      int permits = Math.min(arrival.permits(), permitLimit);
      long t = now;
      int inWindow =
          grants.stream().filter(g -> t - g.atNanos() < window).mapToInt(Grant::permits).sum();
      boolean expected = inWindow + Math.max(1, permits) <= permitLimit;

      assertThat(limiter.tryAcquire(permits, now).isAcquired()).isEqualTo(expected);
      if (expected && permits > 0) {
        grants.add(new Grant(now, permits));
      }
    }
  }

  /** Bound: at most {@code burst + floor(W / T)} permits in every closed interval of length W. */
  @Property
  void gcraNeverExceedsBurstPlusWindowOverEmissionInterval(
      @ForAll @IntRange(min = 1, max = 20) int permits,
      @ForAll @LongRange(min = 1, max = 1_000) long periodMs,
      @ForAll @IntRange(min = 1, max = 6) int burst,
      @ForAll @LongRange(min = 0, max = 3_000) long windowMs,
      @ForAll @LongRange(min = -5_000, max = 5_000) long originMs,
      @ForAll("arrivals") List<Arrival> arrivals) {
    var options = new GcraLimiterOptions(permits, Duration.ofMillis(periodMs), burst);

    List<Grant> grants = run(new GcraLimiter(options), originMs, arrivals);

    long bound = burst + windowMs * MS / options.emissionIntervalNanos();
    assertThat((long) maxInClosedInterval(grants, windowMs * MS)).isLessThanOrEqualTo(bound);
  }

  /** Bound: at most {@code permitLimit} permits in every aligned window [k*W, (k+1)*W). */
  @Property
  void fixedWindowNeverExceedsTheLimitPerAlignedWindow(
      @ForAll @IntRange(min = 1, max = 6) int permitLimit,
      @ForAll @LongRange(min = 1, max = 500) long windowMs,
      @ForAll @LongRange(min = -5_000, max = 5_000) long originMs,
      @ForAll("arrivals") List<Arrival> arrivals) {
    var limiter =
        new FixedWindowLimiter(
            new FixedWindowLimiterOptions(permitLimit, Duration.ofMillis(windowMs)));

    List<Grant> grants = run(limiter, originMs, arrivals);

    Map<Long, Integer> perWindow = new TreeMap<>();
    for (Grant g : grants) {
      perWindow.merge(Math.floorDiv(g.atNanos(), windowMs * MS), g.permits(), Integer::sum);
    }
    assertThat(perWindow.values())
        .allSatisfy(sum -> assertThat(sum).isLessThanOrEqualTo(permitLimit));
  }

  /**
   * Bounds: at most {@code permitLimit} permits in every run of {@code segmentsPerWindow}
   * consecutive aligned segments, and in every closed interval of length {@code window - segment}.
   */
  @Property
  void slidingWindowNeverExceedsTheLimitInSegmentAlignedWindows(
      @ForAll @IntRange(min = 1, max = 6) int permitLimit,
      @ForAll @IntRange(min = 1, max = 5) int segments,
      @ForAll @LongRange(min = 1, max = 100) long segmentMs,
      @ForAll @LongRange(min = -5_000, max = 5_000) long originMs,
      @ForAll("arrivals") List<Arrival> arrivals) {
    long segment = segmentMs * MS;
    var limiter =
        new SlidingWindowLimiter(
            new SlidingWindowLimiterOptions(
                permitLimit, Duration.ofMillis(segmentMs * segments), segments));

    List<Grant> grants = run(limiter, originMs, arrivals);

    for (Grant g : grants) {
      long last = Math.floorDiv(g.atNanos(), segment);
      for (long first = last - segments + 1; first <= last; first++) {
        long from = first;
        LongPredicate inWindow =
            t -> Math.floorDiv(t, segment) >= from && Math.floorDiv(t, segment) < from + segments;
        int sum =
            grants.stream().filter(x -> inWindow.test(x.atNanos())).mapToInt(Grant::permits).sum();
        assertThat(sum)
            .as("segments %d..%d", from, from + segments - 1)
            .isLessThanOrEqualTo(permitLimit);
      }
    }
    assertThat(maxInClosedInterval(grants, (segments - 1) * segment))
        .isLessThanOrEqualTo(permitLimit);
  }

  /** Bound: at most {@code capacity + floor(W * tokensPerPeriod / period)} in every [s, s + W]. */
  @Property
  void tokenBucketNeverExceedsCapacityPlusRateTimesWindow(
      @ForAll @IntRange(min = 1, max = 6) int capacity,
      @ForAll @IntRange(min = 1, max = 5) int tokensPerPeriod,
      @ForAll @LongRange(min = 1, max = 1_000) long periodMs,
      @ForAll @LongRange(min = 0, max = 3_000) long windowMs,
      @ForAll @LongRange(min = -5_000, max = 5_000) long originMs,
      @ForAll("arrivals") List<Arrival> arrivals) {
    var limiter =
        new TokenBucketLimiter(
            new TokenBucketLimiterOptions(capacity, tokensPerPeriod, Duration.ofMillis(periodMs)));

    List<Grant> grants = run(limiter, originMs, arrivals);

    long bound = capacity + windowMs * tokensPerPeriod / periodMs;
    assertThat((long) maxInClosedInterval(grants, windowMs * MS)).isLessThanOrEqualTo(bound);
  }

  /**
   * Bound: never more than {@code permitLimit} permits held by open leases; and a request is
   * granted exactly when it fits, so closing (even twice) gives back exactly what was taken.
   */
  @Property
  void concurrencyNeverExceedsTheLimitOfOutstandingPermits(
      @ForAll @IntRange(min = 1, max = 6) int permitLimit,
      @ForAll List<@IntRange(min = -10, max = 4) Integer> operations) {
    var limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions(permitLimit));
    List<RateLimitLease> open = new ArrayList<>();
    int held = 0;
    for (int op : operations) {
      if (op >= 0) {
        int permits = Math.min(op, permitLimit);
        RateLimitLease lease = limiter.tryAcquire(permits, 0);
        assertThat(lease.isAcquired()).isEqualTo(held + Math.max(1, permits) <= permitLimit);
        if (lease.isAcquired() && permits > 0) {
          open.add(lease);
          held += permits;
        }
      } else if (!open.isEmpty()) {
        RateLimitLease lease = open.remove(-op % open.size());
        lease.close();
        lease.close();
        held -= lease.permits();
      }
      assertThat(held).isLessThanOrEqualTo(permitLimit);
      assertThat(limiter.availablePermits(0)).isEqualTo(permitLimit - held);
    }
  }
}
