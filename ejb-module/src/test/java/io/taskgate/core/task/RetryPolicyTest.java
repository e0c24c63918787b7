package io.taskgate.core.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Backoff;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class RetryPolicyTest {
  static final double ALMOST_ONE = Math.nextDown(1.0);

  static RetryPolicy fixed(String delay, double jitter) {
    return new RetryPolicy(5, Backoff.FIXED, Duration.parse(delay), Duration.parse(delay), jitter);
  }

  static RetryPolicy exponential(String delay, String maxDelay, double jitter) {
    return new RetryPolicy(
        5, Backoff.EXPONENTIAL, Duration.parse(delay), Duration.parse(maxDelay), jitter);
  }

  @ParameterizedTest(name = "{0}: attempt {1} -> {2}")
  @CsvSource({
    // policy description is only for the test name
    "fixed 10s, 1, PT10S",
    "fixed 10s, 2, PT10S",
    "fixed 10s, 1000, PT10S",
    "fixed 10s, 2147483647, PT10S",
  })
  void fixedBackoffAlwaysWaitsTheDelay(String name, int attempt, String expected) {
    assertThat(fixed("PT10S", 0).delayAfter(attempt, 0.3)).isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest(name = "1s doubling up to 1m: attempt {0} -> {1}")
  @CsvSource({
    "1, PT1S",
    "2, PT2S",
    "3, PT4S",
    "4, PT8S",
    "5, PT16S",
    "6, PT32S",
    "7, PT1M",
    "8, PT1M",
    "64, PT1M",
    "65, PT1M",
    "1000000, PT1M",
    "2147483647, PT1M",
  })
  void exponentialBackoffDoublesUpToTheCap(int attempt, String expected) {
    assertThat(exponential("PT1S", "PT1M", 0).delayAfter(attempt, 0.7))
        .isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest(name = "{0} up to {1}: attempt {2} -> {3}")
  @CsvSource({
    "PT0S, PT1H, 1, PT0S",
    "PT0S, PT1H, 2147483647, PT0S",
    "PT0.001S, PT0.001S, 30, PT0.001S",
    "PT1S, PT3S, 2, PT2S",
    "PT1S, PT3S, 3, PT3S",
    "PT1S, P36500D, 2147483647, P36500D",
    "PT0.000000001S, P36500D, 2147483647, P36500D",
    "PT0.000000001S, P36500D, 62, PT2305843009.213693952S",
  })
  void exponentialBackoffNeverOverflows(String delay, String max, int attempt, String expected) {
    assertThat(exponential(delay, max, 0).delayAfter(attempt, 0))
        .isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest(name = "10s with jitter {0} at random {1} -> {2}")
  @CsvSource({
    "0.0, 0.0, PT10S",
    "0.0, 0.5, PT10S",
    "0.0, 0.9999999999999999, PT10S",
    "0.2, 0.0, PT8S",
    "0.2, 0.25, PT9S",
    "0.2, 0.5, PT10S",
    "0.2, 0.75, PT11S",
    "0.2, 0.9999999999999999, PT12S",
    "1.0, 0.0, PT0S",
    "1.0, 0.5, PT10S",
    "1.0, 0.9999999999999999, PT20S",
  })
  void jitterSpreadsTheDelayUniformly(double jitter, double random, String expected) {
    assertThat(fixed("PT10S", jitter).delayAfter(1, random)).isEqualTo(Duration.parse(expected));
  }

  @Test
  void jitterAppliesAfterTheCap() {
    RetryPolicy p = exponential("PT1S", "PT1M", 0.5);
    assertThat(p.delayAfter(100, 0)).isEqualTo(Duration.ofSeconds(30));
    assertThat(p.delayAfter(100, 0.5)).isEqualTo(Duration.ofSeconds(60));
    assertThat(p.delayAfter(100, ALMOST_ONE)).isEqualTo(Duration.ofSeconds(90));
  }

  @ParameterizedTest(name = "maxAttempts {0}: retries after attempt {1}: {2}")
  @CsvSource({
    "1, 1, false",
    "2, 1, true",
    "2, 2, false",
    "5, 4, true",
    "5, 5, false",
    "5, 6, false",
  })
  void retriesWhileAttemptsRemain(int maxAttempts, int failedAttempt, boolean expected) {
    RetryPolicy p = new RetryPolicy(maxAttempts, Backoff.FIXED, Duration.ZERO, Duration.ZERO, 0);
    assertThat(p.retriesAfter(failedAttempt)).isEqualTo(expected);
  }

  @Test
  void noneRunsOnceWithoutDelay() {
    RetryPolicy none = RetryPolicy.none();
    assertThat(none.maxAttempts()).isEqualTo(1);
    assertThat(none.retriesAfter(1)).isFalse();
    assertThat(none.delayAfter(1, 0.5)).isZero();
  }

  @Test
  void theParserReadsIsoDurations() {
    assertThat(RetryPolicy.of(4, Backoff.EXPONENTIAL, "PT2S", " pt5m ", 0.1))
        .isEqualTo(
            new RetryPolicy(
                4, Backoff.EXPONENTIAL, Duration.ofSeconds(2), Duration.ofMinutes(5), 0.1));
    assertThat(RetryPolicy.of(1, Backoff.FIXED, "PT0S", "P1D", 0))
        .isEqualTo(new RetryPolicy(1, Backoff.FIXED, Duration.ZERO, Duration.ofDays(1), 0));
  }

  static Stream<Arguments> invalidPolicies() {
    return Stream.of(
        bad(
            () -> new RetryPolicy(0, Backoff.FIXED, Duration.ZERO, Duration.ZERO, 0),
            "Invalid retry policy: maxAttempts must be at least 1, was 0"),
        bad(
            () -> new RetryPolicy(-3, Backoff.FIXED, Duration.ZERO, Duration.ZERO, 0),
            "Invalid retry policy: maxAttempts must be at least 1, was -3"),
        bad(
            () -> new RetryPolicy(1, null, Duration.ZERO, Duration.ZERO, 0),
            "Invalid retry policy: backoff must not be null, was null"),
        bad(
            () -> new RetryPolicy(1, Backoff.FIXED, null, Duration.ZERO, 0),
            "Invalid retry policy: delay must not be null, was null"),
        bad(
            () -> new RetryPolicy(1, Backoff.FIXED, Duration.ofSeconds(-1), Duration.ZERO, 0),
            "Invalid retry policy: delay must not be negative, was PT-1S"),
        bad(
            () -> new RetryPolicy(1, Backoff.FIXED, Duration.ZERO, null, 0),
            "Invalid retry policy: maxDelay must not be null, was null"),
        bad(
            () ->
                new RetryPolicy(1, Backoff.FIXED, Duration.ofSeconds(2), Duration.ofSeconds(1), 0),
            "Invalid retry policy: maxDelay must not be less than delay PT2S, was PT1S"),
        bad(
            () -> new RetryPolicy(1, Backoff.FIXED, Duration.ZERO, Duration.ofDays(36_501), 0),
            "Invalid retry policy: maxDelay must not exceed PT876000H (100 years), was"
                + " PT876024H"),
        bad(
            () -> new RetryPolicy(1, Backoff.FIXED, Duration.ZERO, Duration.ZERO, -0.1),
            "Invalid retry policy: jitter must be between 0 and 1, was -0.1"),
        bad(
            () -> new RetryPolicy(1, Backoff.FIXED, Duration.ZERO, Duration.ZERO, 1.5),
            "Invalid retry policy: jitter must be between 0 and 1, was 1.5"),
        bad(
            () -> new RetryPolicy(1, Backoff.FIXED, Duration.ZERO, Duration.ZERO, Double.NaN),
            "Invalid retry policy: jitter must be between 0 and 1, was NaN"),
        bad(
            () -> RetryPolicy.of(3, Backoff.FIXED, "abc", "PT1M", 0),
            "retryDelay 'abc' is not an ISO-8601 duration such as PT1S"),
        bad(
            () -> RetryPolicy.of(3, Backoff.FIXED, "10s", "PT1M", 0),
            "retryDelay '10s' is not an ISO-8601 duration such as PT1S"),
        bad(
            () -> RetryPolicy.of(3, Backoff.FIXED, "PT1S", "", 0),
            "maxRetryDelay '' is not an ISO-8601 duration such as PT1S"),
        bad(
            () -> RetryPolicy.of(3, Backoff.FIXED, null, "PT1M", 0),
            "retryDelay is missing: give an ISO-8601 duration such as PT1S"),
        bad(
            () -> RetryPolicy.of(3, Backoff.FIXED, "PT1M", "PT1S", 0),
            "Invalid retry policy: maxDelay must not be less than delay PT1M, was PT1S"),
        bad(
            () -> fixed("PT1S", 0).delayAfter(0, 0.5),
            "Retry delay: failedAttempt must be at least 1, was 0"),
        bad(
            () -> fixed("PT1S", 0).delayAfter(1, 1.0),
            "Retry delay: random must be in [0, 1), was 1.0"),
        bad(
            () -> fixed("PT1S", 0).delayAfter(1, -0.5),
            "Retry delay: random must be in [0, 1), was -0.5"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalidPolicies")
  void invalidValuesAreRefusedWithTheirNameAndValue(Supplier<Object> build, String message) {
    assertThatThrownBy(build::get).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  private static Arguments bad(Supplier<Object> build, String message) {
    return Arguments.of(build, message);
  }
}
