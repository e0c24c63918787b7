package io.taskgate.core.limiter;

import static io.taskgate.core.limiter.Script.ms;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChainedLimiterTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  private static ConcurrencyLimiter concurrency(int limit) {
    return new ConcurrencyLimiter(new ConcurrencyLimiterOptions(limit));
  }

  private static FixedWindowLimiter fixedWindow(int limit) {
    return new FixedWindowLimiter(new FixedWindowLimiterOptions(limit, SECOND));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          the tighter limit decides     | 0 1 ok; 0 1 ok; 0 1 no; 0 avail 0; 0 close 0; 0 1 ok; 0 close 5; 0 1 wait1000
          closing releases every member | 0 2 ok; 0 close 0; 0 close 0; 0 avail 1; 0 idle false; 1000 idle true
          zero permits ask              | 0 0 ok; 0 2 ok; 0 0 no; 1000 0 no; 1000 close 1; 1000 0 ok
          """)
  void scripts(String title, String script) {
    Script.run(ChainedLimiter.of(concurrency(2), fixedWindow(3)), script);
  }

  @Test
  void aRefusingMemberConsumesNothingFromTheOthers() {
    var bucket = new TokenBucketLimiter(new TokenBucketLimiterOptions(2, 1, SECOND));
    var window = fixedWindow(1);
    var chain = ChainedLimiter.of(bucket, window);

    assertThat(chain.tryAcquire(1, 0).isAcquired()).isTrue();
    RateLimitLease refused = chain.tryAcquire(1, ms(10));

    assertThat(refused.isAcquired()).isFalse();
    assertThat(refused.retryAfterNanos()).hasValue(ms(990));
    assertThat(bucket.availablePermits(ms(10))).isEqualTo(1);
  }

  @Test
  void retryAfterIsTheLargestAndReasonsAreJoined() {
    var gcra = new GcraLimiter(new GcraLimiterOptions(10, SECOND, 1));
    var chain = ChainedLimiter.of(gcra, fixedWindow(1));
    chain.tryAcquire(1, 0);

    RateLimitLease refused = chain.tryAcquire(1, ms(50));

    assertThat(refused.retryAfterNanos()).hasValue(ms(950));
    assertThat(refused.reason())
        .hasValue(
            "rate exceeded: 1 requested, 0 of a burst of 1 available; fixed window limit reached:"
                + " 1 of 1 permits granted in this window, 1 requested");
  }

  @Test
  void aMemberWithoutRetryAfterLeavesTheKnownMaximum() {
    var full = concurrency(1);
    full.tryAcquire(1, 0);

    assertThat(ChainedLimiter.of(full, fixedWindow(1)).tryAcquire(1, 0).retryAfterNanos())
        .isEmpty();

    var window = fixedWindow(1);
    window.tryAcquire(1, 0);
    assertThat(ChainedLimiter.of(full, window).tryAcquire(1, ms(400)).retryAfterNanos())
        .hasValue(ms(600));
  }

  @Test
  void aLateRefusalReleasesTheLeasesAlreadyTaken() {
    var first = concurrency(1);
    var racing = new LosesEveryRace(fixedWindow(5));
    var chain = ChainedLimiter.of(first, racing, fixedWindow(1));

    RateLimitLease refused = chain.tryAcquire(1, 0);

    assertThat(refused.isAcquired()).isFalse();
    assertThat(refused.reason()).hasValue("lost the race");
    assertThat(first.availablePermits(0)).isEqualTo(1);
    assertThat(first.isIdle(0)).isTrue();
  }

  @Test
  void permitLimitIsTheSmallestOfTheMembers() {
    assertThat(ChainedLimiter.of(concurrency(7), fixedWindow(3)).permitLimit()).isEqualTo(3);
  }

  /** Probes like its delegate but refuses every acquisition, as if another caller came first. */
  private record LosesEveryRace(RateLimiter delegate) implements RateLimiter {

    @Override
    public RateLimitLease tryAcquire(int permits, long nowNanos) {
      return RateLimitLease.rejected(permits, "lost the race");
    }

    @Override
    public RateLimitLease probe(int permits, long nowNanos) {
      return delegate.probe(permits, nowNanos);
    }

    @Override
    public int availablePermits(long nowNanos) {
      return delegate.availablePermits(nowNanos);
    }

    @Override
    public int permitLimit() {
      return delegate.permitLimit();
    }

    @Override
    public boolean isIdle(long nowNanos) {
      return delegate.isIdle(nowNanos);
    }
  }
}
