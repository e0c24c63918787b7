package io.taskgate.core.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WindowCountsTest {
  private static final long SECOND = 1_000;
  private static final long MINUTE = 60 * SECOND;
  private static final long HOUR = 60 * MINUTE;
  private static final long NOON = Instant.parse("2026-11-26T12:00:00Z").toEpochMilli();

  private final WindowCounts counts = new WindowCounts();

  @Test
  void aFixedWindowLetsLimitStartsPerIntervalAndOpensAtTheNextOne() {
    long at = NOON + 700;
    for (int i = 0; i < 5; i++) {
      assertThat(counts.acquire(at, 5, 2 * SECOND, 1).granted()).isTrue();
    }

    WindowCounts.Grant refused = counts.acquire(at + 500, 5, 2 * SECOND, 1);

    assertThat(refused.granted()).isFalse();
    assertThat(refused.opensAt()).isEqualTo(NOON + 2 * SECOND);
    assertThat(counts.acquire(NOON + 2 * SECOND, 5, 2 * SECOND, 1).granted()).isTrue();
  }

  @Test
  void aFixedWindowAllowsTwiceTheLimitAcrossABoundary() {
    for (int i = 0; i < 4; i++) {
      assertThat(counts.acquire(NOON - MINUTE, 4, HOUR, 1).granted()).isTrue();
    }
    for (int i = 0; i < 4; i++) {
      assertThat(counts.acquire(NOON, 4, HOUR, 1).granted()).as("start %d at 13:00", i).isTrue();
    }
  }

  @Test
  void aSlidingWindowCountsAStartInEveryIntervalItsBucketBelongsTo() {
    // 4 per hour in 3 buckets of 20 minutes; 4 starts at 11:59, in the 11:40 bucket
    long bucket = 20 * MINUTE;
    for (int i = 0; i < 4; i++) {
      assertThat(counts.acquire(NOON - MINUTE, 4, bucket, 3).granted()).isTrue();
    }

    WindowCounts.Grant at13 = counts.acquire(NOON, 4, bucket, 3);

    assertThat(at13.granted()).isFalse();
    assertThat(Instant.ofEpochMilli(at13.opensAt()))
        .as("held until the 11:40 bucket leaves the interval")
        .isEqualTo(Instant.parse("2026-11-26T11:40:00Z").plus(Duration.ofHours(1)));
    assertThat(counts.acquire(NOON + 39 * MINUTE, 4, bucket, 3).granted()).isFalse();
    assertThat(counts.acquire(NOON + 40 * MINUTE, 4, bucket, 3).granted()).isTrue();
  }

  @Test
  void theOpeningIsWhenEnoughOfTheOldestBucketsHaveLeft() {
    long bucket = 10 * SECOND;
    counts.acquire(NOON, 3, bucket, 6); // bucket 12:00:00
    counts.acquire(NOON + 15 * SECOND, 3, bucket, 6); // bucket 12:00:10
    counts.acquire(NOON + 25 * SECOND, 3, bucket, 6); // bucket 12:00:20

    // full until the 12:00:00 bucket leaves the last 6 buckets: at 12:01:00
    assertThat(counts.opensAt(NOON + 30 * SECOND, 3, bucket, 6)).isEqualTo(NOON + MINUTE);
    assertThat(counts.opensAt(NOON + 30 * SECOND, 2, bucket, 6)).isEqualTo(NOON + 70 * SECOND);
    assertThat(counts.opensAt(NOON + 30 * SECOND, 4, bucket, 6)).isEqualTo(NOON + 30 * SECOND);
  }

  @Test
  void aStartThatNeverRanIsGivenBack() {
    WindowCounts.Grant grant = counts.acquire(NOON, 1, SECOND, 1);
    assertThat(counts.acquire(NOON, 1, SECOND, 1).granted()).isFalse();

    counts.add(grant.bucketStart(), -1);

    assertThat(counts.count(NOON, SECOND, 1)).isZero();
    assertThat(counts.acquire(NOON, 1, SECOND, 1).granted()).isTrue();
    counts.add(grant.bucketStart(), -5);
    assertThat(counts.count(NOON, SECOND, 1)).isZero();
  }

  @Test
  void oldBucketsAreDroppedAndARedefinedWindowKeepsItsCounts() {
    counts.acquire(NOON, 10, SECOND, 10);
    counts.acquire(NOON + 5 * SECOND, 10, SECOND, 10);

    assertThat(counts.count(NOON + 9 * SECOND, SECOND, 10)).isEqualTo(2);
    assertThat(counts.count(NOON + 10 * SECOND, SECOND, 10)).isEqualTo(1);
    assertThat(counts.buckets(NOON + 10 * SECOND, SECOND, 10)).containsOnlyKeys(NOON + 5 * SECOND);
    // the same starts seen as 2 buckets of 5 s: the 12:00:05 bucket is the current one's previous
    assertThat(counts.count(NOON + 10 * SECOND, 5 * SECOND, 2)).isEqualTo(1);
    assertThat(counts.isIdle(NOON + 20 * SECOND, SECOND, 10)).isTrue();
  }
}
