package io.taskgate.core.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.core.limiter.FixedWindowLimiter;
import io.taskgate.core.limiter.FixedWindowLimiterOptions;
import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.core.limiter.SlidingWindowLimiter;
import io.taskgate.core.limiter.SlidingWindowLimiterOptions;
import io.taskgate.core.throttle.WindowCounts;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
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
 * {@link WindowRule} against a brute-force count over grant times, and the two windows that follow
 * it (the job throttlers' {@link WindowCounts}, in milliseconds, and the {@link
 * SlidingWindowLimiter}, in nanoseconds) against each other on the same bucket layout.
 */
class WindowRulePropertyTest {

  private static final long MS = 1_000_000L;

  /** A request arriving {@code gapMs} after the previous one, for {@code permits}. */
  record Arrival(long gapMs, int permits) {}

  @Provide
  Arbitrary<List<Arrival>> arrivals() {
    Arbitrary<Long> gapMs =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just(0L)),
            Tuple.of(6, Arbitraries.longs().between(1, 40)),
            Tuple.of(1, Arbitraries.longs().between(41, 2_000)));
    return Combinators.combine(gapMs, Arbitraries.integers().between(1, 4))
        .as(Arrival::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(150);
  }

  @Provide
  Arbitrary<List<Long>> ages() {
    return Arbitraries.longs().between(0, 400).list().ofMaxSize(40);
  }

  /** How many of {@code grantTimes} fall in the interval of {@code at}. */
  private static int countIn(WindowRule rule, List<Long> grantTimes, long at) {
    long from = rule.intervalStart(at);
    long to = rule.bucketStart(at) + rule.bucketLength();
    return (int) grantTimes.stream().filter(t -> t >= from && t < to).count();
  }

  @Property
  void theRuleAnswersWhatABruteForceCountOverTheGrantsAnswers(
      @ForAll @LongRange(min = 1, max = 50) long bucketLength,
      @ForAll @IntRange(min = 1, max = 6) int buckets,
      @ForAll @IntRange(min = 0, max = 8) int limit,
      @ForAll @IntRange(min = 1, max = 4) int permits,
      @ForAll @LongRange(min = -3_000, max = 3_000) long now,
      @ForAll("ages") List<Long> ages) {
    WindowRule rule = new WindowRule(bucketLength, buckets);
    List<Long> grantTimes = ages.stream().map(age -> now - age).toList();
    // the counted buckets of the interval, oldest first, as a window keeps them
    TreeMap<Long, Integer> perBucket = new TreeMap<>();
    for (long t : grantTimes) {
      if (t >= rule.intervalStart(now)) {
        perBucket.merge(rule.bucketStart(t), 1, Integer::sum);
      }
    }
    long[] starts = perBucket.keySet().stream().mapToLong(Long::longValue).toArray();
    int[] counts = perBucket.values().stream().mapToInt(Integer::intValue).toArray();
    int counted = countIn(rule, grantTimes, now);

    assertThat(rule.bucketStart(now)).isLessThanOrEqualTo(now);
    assertThat(rule.bucketStart(now) + bucketLength).isGreaterThan(now);
    assertThat(Math.floorMod(rule.bucketStart(now), bucketLength)).isZero();
    assertThat(rule.bucketStart(now)).isEqualTo(rule.index(now) * bucketLength);
    assertThat(WindowRule.fits(counted, permits, limit)).isEqualTo(counted + permits <= limit);

    // the count only drops when a bucket leaves: try now, then each following bucket start
    long expected = rule.bucketStart(now) + buckets * bucketLength;
    for (int j = 0; j <= buckets; j++) {
      long at = j == 0 ? now : rule.bucketStart(now) + j * bucketLength;
      if (countIn(rule, grantTimes, at) + permits <= limit) {
        expected = at;
        break;
      }
    }
    assertThat(rule.opensAt(now, counted, permits, limit, WindowRule.Counts.of(starts, counts)))
        .isEqualTo(expected);
  }

  @Property
  void theThrottlersWindowAndTheSlidingWindowLimiterAdmitAlikeAndOpenAlike(
      @ForAll @LongRange(min = 1, max = 100) long bucketMs,
      @ForAll @IntRange(min = 1, max = 6) int buckets,
      @ForAll @IntRange(min = 1, max = 6) int limit,
      @ForAll @LongRange(min = -5_000, max = 5_000) long originMs,
      @ForAll("arrivals") List<Arrival> arrivals) {
    WindowCounts window = new WindowCounts();
    var limiter =
        new SlidingWindowLimiter(
            new SlidingWindowLimiterOptions(limit, Duration.ofMillis(bucketMs * buckets), buckets));
    long now = originMs;
    for (Arrival arrival : arrivals) {
      now += arrival.gapMs();

      WindowCounts.Grant grant = window.acquire(now, limit, bucketMs, buckets);
      RateLimitLease lease = limiter.tryAcquire(1, now * MS);

      assertThat(lease.isAcquired()).as("granted at %d ms", now).isEqualTo(grant.granted());
      if (!grant.granted()) {
        assertThat(now * MS + lease.retryAfterNanos().getAsLong())
            .as("opening after a refusal at %d ms", now)
            .isEqualTo(grant.opensAt() * MS);
      }
      assertThat(window.opensAt(now, limit, bucketMs, buckets) * MS)
          .isEqualTo(now * MS + retryAfter(limiter.probe(1, now * MS)));
    }
  }

  @Property
  void theFixedWindowLimiterIsTheOneSegmentSlidingWindow(
      @ForAll @LongRange(min = 1, max = 300) long windowMs,
      @ForAll @IntRange(min = 1, max = 6) int limit,
      @ForAll @LongRange(min = -5_000, max = 5_000) long originMs,
      @ForAll("arrivals") List<Arrival> arrivals) {
    var fixed =
        new FixedWindowLimiter(new FixedWindowLimiterOptions(limit, Duration.ofMillis(windowMs)));
    var sliding =
        new SlidingWindowLimiter(
            new SlidingWindowLimiterOptions(limit, Duration.ofMillis(windowMs), 1));
    long now = originMs * MS;
    for (Arrival arrival : arrivals) {
      now += arrival.gapMs() * MS;
      int permits = Math.min(arrival.permits(), limit);

      RateLimitLease a = fixed.tryAcquire(permits, now);
      RateLimitLease b = sliding.tryAcquire(permits, now);

      assertThat(a.isAcquired()).isEqualTo(b.isAcquired());
      assertThat(a.retryAfterNanos()).isEqualTo(b.retryAfterNanos());
      assertThat(fixed.availablePermits(now)).isEqualTo(sliding.availablePermits(now));
    }
  }

  private static long retryAfter(RateLimitLease lease) {
    return lease.isAcquired() ? 0 : lease.retryAfterNanos().getAsLong();
  }
}
