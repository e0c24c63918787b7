package io.taskgate.core.limiter;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ValidationTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  static Stream<Arguments> badOptions() {
    return Stream.of(
        bad(() -> new ConcurrencyLimiterOptions(0), "permitLimit must be >= 1, was 0"),
        bad(() -> new TokenBucketLimiterOptions(0, 1, SECOND), "capacity must be >= 1, was 0"),
        bad(
            () -> new TokenBucketLimiterOptions(1, -2, SECOND),
            "tokensPerPeriod must be >= 1, was -2"),
        bad(
            () -> new TokenBucketLimiterOptions(1, 1, Duration.ZERO),
            "period must be positive, was PT0S"),
        bad(
            () -> new TokenBucketLimiterOptions(1, 10_000_000, Duration.ofDays(1)),
            "period in nanoseconds times (tokensPerPeriod + 1) must fit in a long; use a shorter"
                + " period with proportionally fewer tokens, was period PT24H with tokensPerPeriod"
                + " 10000000"),
        bad(() -> new FixedWindowLimiterOptions(0, SECOND), "permitLimit must be >= 1, was 0"),
        bad(
            () -> new FixedWindowLimiterOptions(1, Duration.ofMillis(-5)),
            "window must be positive, was PT-0.005S"),
        bad(
            () -> new SlidingWindowLimiterOptions(1, SECOND, 0),
            "segmentsPerWindow must be >= 1, was 0"),
        bad(
            () -> new SlidingWindowLimiterOptions(1, SECOND, 3),
            "window must divide into segmentsPerWindow equal segments of whole nanoseconds, was"
                + " window PT1S with segmentsPerWindow 3"),
        bad(() -> new GcraLimiterOptions(0, SECOND, 1), "permits must be >= 1, was 0"),
        bad(() -> new GcraLimiterOptions(1, SECOND, 0), "burst must be >= 1, was 0"),
        bad(
            () -> new GcraLimiterOptions(1, Duration.ofDays(365), Integer.MAX_VALUE),
            "burst times the emission interval (period / permits) must fit in a long of"
                + " nanoseconds, was burst 2147483647 with an emission interval of PT8760H"),
        bad(
            () -> new SlidingLogLimiterOptions(1, Duration.ofDays(365 * 300)),
            "window must fit in a long of nanoseconds (about 292 years), was PT2628000H"),
        bad(() -> new SlidingLogLimiterOptions(-1, SECOND), "permitLimit must be >= 1, was -1"),
        bad(
            () -> new PartitionedLimiter<String>(k -> null, 0),
            "maxPartitions must be >= 1, was 0"),
        bad(() -> new ChainedLimiter(List.of()), "limiters must not be empty"),
        bad(() -> RateLimitLease.rejected(1, -1, "x"), "retryAfterNanos must be >= 0, was -1"));
  }

  private static Arguments bad(ThrowingCallable construction, String message) {
    return Arguments.of(construction, message);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badOptions")
  void optionsNameTheFieldAndTheBadValue(ThrowingCallable construction, String message) {
    assertThatIllegalArgumentException().isThrownBy(construction).withMessage(message);
  }

  static Stream<Arguments> limiters() {
    return Stream.of(
        limiter(
            () -> new ConcurrencyLimiter(new ConcurrencyLimiterOptions(3)), "ConcurrencyLimiter"),
        limiter(
            () -> new TokenBucketLimiter(new TokenBucketLimiterOptions(3, 1, SECOND)),
            "TokenBucketLimiter"),
        limiter(
            () -> new FixedWindowLimiter(new FixedWindowLimiterOptions(3, SECOND)),
            "FixedWindowLimiter"),
        limiter(
            () -> new SlidingWindowLimiter(new SlidingWindowLimiterOptions(3, SECOND, 2)),
            "SlidingWindowLimiter"),
        limiter(() -> new GcraLimiter(new GcraLimiterOptions(10, SECOND, 3)), "GcraLimiter"),
        limiter(
            () -> new SlidingLogLimiter(new SlidingLogLimiterOptions(3, SECOND)),
            "SlidingLogLimiter"),
        limiter(
            () ->
                ChainedLimiter.of(
                    new ConcurrencyLimiter(new ConcurrencyLimiterOptions(5)),
                    new GcraLimiter(new GcraLimiterOptions(10, SECOND, 3))),
            "ChainedLimiter"));
  }

  private static Arguments limiter(Supplier<RateLimiter> factory, String name) {
    return Arguments.of(factory, name);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("limiters")
  void permitsAboveTheLimitNameValueAndLimit(Supplier<RateLimiter> factory, String name) {
    RateLimiter limiter = factory.get();

    assertThatIllegalArgumentException()
        .isThrownBy(() -> limiter.tryAcquire(4, 0))
        .withMessage("permits must be <= the permit limit 3 of this " + name + ", was 4");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> limiter.probe(4, 0))
        .withMessage("permits must be <= the permit limit 3 of this " + name + ", was 4");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> limiter.tryAcquire(-1, 0))
        .withMessage("permits must be >= 0, was -1");
  }
}
