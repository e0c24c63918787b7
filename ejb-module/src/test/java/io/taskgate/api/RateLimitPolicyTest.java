package io.taskgate.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.core.ratelimit.RateLimitScope;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RateLimitPolicyTest {
  static final RateLimitPolicy BASE = RateLimitPolicy.of(15, Duration.ofMinutes(1));

  @Test
  void defaultsFollowTheSpecification() {
    assertThat(BASE.burst()).isEqualTo(15);
    assertThat(BASE.throttleRetries()).isTrue();
    assertThat(BASE.startEmpty()).isFalse();
    assertThat(BASE.maxReservationHorizon()).isEqualTo(Duration.ofHours(1));
    assertThat(BASE.maxInSlotWait()).isEqualTo(Duration.ofSeconds(1));
    assertThat(BASE.overflow()).isEqualTo(OverflowBehavior.WAIT_FOR_CAPACITY);
    assertThat(BASE.emissionIntervalNanos()).isEqualTo(4_000_000_000L);
    assertThat(BASE.burstToleranceNanos()).isEqualTo(56_000_000_000L);
  }

  @Test
  void theEmissionIntervalIsRoundedUpSoTheRateIsNeverExceeded() {
    assertThat(RateLimitPolicy.of(3, Duration.ofSeconds(1)).emissionIntervalNanos())
        .isEqualTo(333_333_334L);
  }

  @Test
  void withersChangeOneFieldOnly() {
    RateLimitPolicy p =
        BASE.withBurst(2)
            .withThrottleRetries(false)
            .withStartEmpty(true)
            .withMaxReservationHorizon(Duration.ofMinutes(5))
            .withMaxInSlotWait(Duration.ZERO)
            .withOverflow(OverflowBehavior.DISCARD);

    assertThat(p)
        .isEqualTo(
            new RateLimitPolicy(
                15,
                Duration.ofMinutes(1),
                2,
                false,
                true,
                Duration.ofMinutes(5),
                Duration.ZERO,
                OverflowBehavior.DISCARD));
  }

  static Stream<Arguments> invalidPolicies() {
    return Stream.<Arguments>of(
        bad(
            () -> RateLimitPolicy.of(0, Duration.ofMinutes(1)),
            "permits must be at least 1, was 0"),
        bad(
            () -> RateLimitPolicy.of(-5, Duration.ofMinutes(1)),
            "permits must be at least 1, was -5"),
        bad(() -> RateLimitPolicy.of(1, Duration.ZERO), "period must be positive, was PT0S"),
        bad(
            () -> RateLimitPolicy.of(1, Duration.ofSeconds(-1)),
            "period must be positive, was PT-1S"),
        bad(() -> RateLimitPolicy.of(1, null), "period must not be null, was null"),
        bad(
            () -> RateLimitPolicy.of(1, Duration.ofDays(40_000)),
            "period must not exceed PT876000H (100 years), was PT960000H"),
        bad(() -> BASE.withBurst(0), "burst must be at least 1, was 0"),
        bad(
            () -> RateLimitPolicy.of(1, Duration.ofDays(365)).withBurst(101),
            "burst times the emission interval (period / permits = PT8760H) must not exceed"
                + " PT876000H, was 101"),
        bad(
            () -> BASE.withMaxReservationHorizon(Duration.ofMillis(-1)),
            "maxReservationHorizon must not be negative, was PT-0.001S"),
        bad(
            () -> BASE.withMaxReservationHorizon(Duration.ofDays(36_501)),
            "maxReservationHorizon must not exceed PT876000H (100 years), was PT876024H"),
        bad(() -> BASE.withMaxInSlotWait(null), "maxInSlotWait must not be null, was null"),
        bad(
            () -> BASE.withMaxInSlotWait(Duration.ofSeconds(-1)),
            "maxInSlotWait must not be negative, was PT-1S"),
        bad(() -> BASE.withOverflow(null), "overflow must not be null, was null"));
  }

  static Arguments bad(Supplier<RateLimitPolicy> build, String message) {
    return Arguments.of(build, message);
  }

  @ParameterizedTest
  @MethodSource("invalidPolicies")
  void invalidValuesAreRefusedNamingTheFieldAndTheValue(
      Supplier<RateLimitPolicy> build, String message) {
    assertThatThrownBy(build::get)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid rate-limit policy: " + message);
  }

  @Test
  void theLargestSpansAreAccepted() {
    RateLimitPolicy p =
        RateLimitPolicy.of(1, RateLimitPolicy.MAX_SPAN)
            .withMaxReservationHorizon(RateLimitPolicy.MAX_SPAN);

    assertThat(p.emissionIntervalNanos()).isEqualTo(RateLimitPolicy.MAX_SPAN.toNanos());
  }

  @Test
  void scopesNeedANameAndAPolicy() {
    assertThatThrownBy(() -> new RateLimitScope(" ", BASE))
        .hasMessage("Invalid rate-limit scope: name must not be blank, was ' '");
    assertThatThrownBy(() -> new RateLimitScope("Sync", null))
        .hasMessage("Invalid rate-limit scope 'Sync': policy is null");
  }
}
