package io.taskgate.core.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.OverflowBehavior;
import io.taskgate.api.RateLimitPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One limit, checked once; its derived values, its shares, its text and its policies. */
class LimitTest {
  static final Limit FIFTEEN_PER_MINUTE = Limit.of(15, Duration.ofMinutes(1));

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0  | PT1S  | 1 | permits | 0     | permits must be at least 1, was 0",
        "-5 | PT1S  | 1 | permits | -5    | permits must be at least 1, was -5",
        "1  | PT0S  | 1 | period  | PT0S  | period must be positive, was PT0S",
        "1  | -PT1S | 1 | period  | PT-1S | period must be positive, was PT-1S",
        "1  |       | 1 | period  |       | period must be given, such as PT1S",
        "5  | PT1S  | 0 | burst   | 0     | burst must be at least 1, was 0",
        "0  | PT0S  | 0 | permits | 0     | permits must be at least 1, was 0"
      })
  void anInvalidLimitNamesTheFieldAndTheValue(
      int permits, String period, int burst, String field, String value, String message) {
    Duration p = period == null ? null : Duration.parse(period);

    assertThatThrownBy(() -> new Limit(permits, p, burst))
        .isInstanceOf(InvalidLimitException.class)
        .hasMessage(message)
        .satisfies(
            e -> {
              assertThat(((InvalidLimitException) e).option()).isEqualTo(field);
              assertThat(((InvalidLimitException) e).value()).isEqualTo(value);
            });
  }

  @Test
  void theDerivedValuesAreThoseOfTheGcra() {
    assertThat(FIFTEEN_PER_MINUTE.burst()).isEqualTo(15);
    assertThat(FIFTEEN_PER_MINUTE.periodNanos()).isEqualTo(60_000_000_000L);
    assertThat(FIFTEEN_PER_MINUTE.emissionIntervalNanos()).isEqualTo(4_000_000_000L);
    assertThat(FIFTEEN_PER_MINUTE.burstToleranceNanos()).isEqualTo(56_000_000_000L);
    assertThat(Limit.of(3, Duration.ofSeconds(1)).emissionIntervalNanos())
        .as("rounded up, so that the rate is never exceeded")
        .isEqualTo(333_333_334L);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "15 | PT1M   | 15 | 15 per 1 min, burst 15 | 15 per 1 min",
        "1  | PT10S  | 1  | 1 per 10 s, burst 1    | 1 per 10 s",
        "5  | PT0.5S | 2  | 5 per 500 ms, burst 2  | 5 per 500 ms",
        "2  | PT2H   | 1  | 2 per 2 h, burst 1     | 2 per 2 h"
      })
  void aLimitReadsAsPeopleSayIt(
      int permits, String period, int burst, String described, String rate) {
    Limit limit = new Limit(permits, Duration.parse(period), burst);

    assertThat(limit.describe()).isEqualTo(described);
    assertThat(limit.rate()).isEqualTo(rate);
  }

  @Test
  void aShareStretchesThePeriodAndDividesTheBurst() {
    Limit ten = Limit.of(10, Duration.ofSeconds(1));

    assertThat(ten.share(1)).isSameAs(ten);
    assertThat(ten.share(0)).isSameAs(ten);
    assertThat(ten.share(3)).isEqualTo(new Limit(10, Duration.ofSeconds(3), 3));
    assertThat(ten.share(20).burst()).as("at least 1").isEqualTo(1);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0       | PT1S  | 1       | permits must be between 1 and 1000000, was 0",
        "1000001 | PT1H  | 1       | permits must be between 1 and 1000000, was 1000001",
        "1       | P367D | 1       | period must be positive and at most PT8784H (366 days), was"
            + " PT8808H",
        "5       | PT1S  | 1000001 | burst must be between 1 and 1000000, was 1000001",
        "1001    | PT1S  | 1       | permits must leave at least PT0.001S between two starts"
            + " (period / permits), was 1001 per PT1S: at most 1000 per PT1S"
      })
  void aTaskRateKeepsToTheSettingRanges(int permits, String period, int burst, String message) {
    Duration p = Duration.parse(period);

    assertThatThrownBy(() -> Limit.taskRate(permits, p, burst))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
    if (permits >= 1) {
      Limit limit = new Limit(permits, p, burst);
      assertThatThrownBy(limit::requireTaskRate).hasMessage(message);
    }
  }

  @Test
  void aTaskRateWithinTheRangesIsTheLimit() {
    assertThat(Limit.taskRate(15, Duration.ofMinutes(1), 15)).isEqualTo(FIFTEEN_PER_MINUTE);
    assertThat(FIFTEEN_PER_MINUTE.requireTaskRate()).isSameAs(FIFTEEN_PER_MINUTE);
  }

  @Test
  void aPolicysLimitAndALimitAppliedToAPolicyKeepTheOtherOptions() {
    RateLimitPolicy base =
        RateLimitPolicy.of(15, Duration.ofMinutes(1))
            .withBurst(3)
            .withStartEmpty(true)
            .withOverflow(OverflowBehavior.DISCARD);

    assertThat(Limit.of(base)).isEqualTo(new Limit(15, Duration.ofMinutes(1), 3));
    assertThat(new Limit(2, Duration.ofSeconds(10), 1).applyTo(base))
        .isEqualTo(
            new RateLimitPolicy(
                2,
                Duration.ofSeconds(10),
                1,
                base.throttleRetries(),
                true,
                base.maxReservationHorizon(),
                base.maxInSlotWait(),
                OverflowBehavior.DISCARD));
    assertThat(FIFTEEN_PER_MINUTE.withBurst(3).policy())
        .isEqualTo(RateLimitPolicy.of(15, Duration.ofMinutes(1)).withBurst(3));
  }

  @Test
  void aLimitThePolicyCannotHoldIsRefusedInThePolicysTerms() {
    Limit tooLong = new Limit(1, RateLimitPolicy.MAX_SPAN.multipliedBy(2), 1);

    assertThatThrownBy(tooLong::policy)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid rate-limit policy: period must not exceed");
  }
}
