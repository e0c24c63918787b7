package io.taskgate.core.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.Backoff;
import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Properties of the retry delay over random policies, attempts and random draws. */
class RetryPolicyPropertiesTest {
  @Property(tries = 500)
  void theDelayStaysWithinTheJitterBoundsAndTheCap(
      @ForAll @LongRange(min = 0, max = 1_000_000) long delayMillis,
      @ForAll @LongRange(min = 0, max = 1_000_000_000) long extraMillis,
      @ForAll @DoubleRange(min = 0, max = 1) double jitter,
      @ForAll @IntRange(min = 1) int attempt,
      @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) double random,
      @ForAll boolean exponential) {
    Duration delay = Duration.ofMillis(delayMillis);
    Duration max = delay.plusMillis(extraMillis);
    RetryPolicy p =
        new RetryPolicy(3, exponential ? Backoff.EXPONENTIAL : Backoff.FIXED, delay, max, jitter);
    long base = p.delayAfter(attempt, 0.5).toNanos();
    long d = p.delayAfter(attempt, random).toNanos();

    assertThat(d).isBetween(0L, (long) Math.floor(max.toNanos() * (1 + jitter)));
    assertThat((double) d).isBetween(base * (1 - jitter) - 1, base * (1 + jitter) + 1);
    assertThat(p.delayAfter(attempt, 0)).isLessThanOrEqualTo(p.delayAfter(attempt, random));
  }
}
