package io.taskgate.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SettingRangesTest {

  @ParameterizedTest
  @CsvSource({
    "1, PT1S, 1",
    "1000, PT1S, 1000",
    "1000000, PT1000S, 1000000",
    "1, P366D, 1",
    "60, PT1M, 1"
  })
  void aTaskRateWithinTheRangesIsAccepted(int permits, String period, int burst) {
    SettingRanges.taskRate(permits, Duration.parse(period), burst);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0 | PT1S | 1 | permits must be between 1 and 1000000, was 0",
        "1000001 | PT1H | 1 | permits must be between 1 and 1000000, was 1000001",
        "2147483647 | PT0.000000001S | 1 | permits must be between 1 and 1000000, was 2147483647",
        "1 | PT0S | 1 | period must be positive and at most PT8784H (366 days), was PT0S",
        "1 | -PT1S | 1 | period must be positive and at most PT8784H (366 days), was PT-1S",
        "1 | P367D | 1 | period must be positive and at most PT8784H (366 days), was PT8808H",
        "1 | P1000000D | 1 | period must be positive and at most PT8784H (366 days), was"
            + " PT24000000H",
        "1 | PT2562047788015215H | 1 | period must be positive and at most PT8784H (366 days), was"
            + " PT2562047788015215H",
        "5 | PT1S | 0 | burst must be between 1 and 1000000, was 0",
        "5 | PT1S | 2147483647 | burst must be between 1 and 1000000, was 2147483647",
        "1001 | PT1S | 1 | permits must leave at least PT0.001S between two starts (period /"
            + " permits), was 1001 per PT1S: at most 1000 per PT1S",
        "1 | PT0.000000001S | 1 | permits must leave at least PT0.001S between two starts (period"
            + " / permits), was 1 per PT0.000000001S: at most 0 per PT0.000000001S"
      })
  void aTaskRateOutsideTheRangesIsRefusedNamingFieldAndValue(
      int permits, String period, int burst, String message) {
    assertThatThrownBy(() -> SettingRanges.taskRate(permits, Duration.parse(period), burst))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void aPeriodMustBeGiven() {
    assertThatThrownBy(() -> SettingRanges.taskRate(1, null, 1))
        .hasMessage("period must be given, such as PT1M");
  }

  @Test
  void aKeyIsNeitherEmptyNorHoldsANul() {
    assertThat(SettingRanges.key("key", "tenant 7/ä")).isEqualTo("tenant 7/ä");
    assertThat(SettingRanges.key("key", " ")).isEqualTo(" ");
    assertThatThrownBy(() -> SettingRanges.key("key", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key must not be empty, was \"\"");
    assertThatThrownBy(() -> SettingRanges.key("key", null))
        .hasMessage("key must not be empty, was \"\"");
    assertThatThrownBy(() -> SettingRanges.key("key", "a\u0000b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key must not contain the NUL character (\\u0000), was \"a\\u0000b\"");
  }

  @ParameterizedTest
  @CsvSource({
    "0, false",
    "1, true",
    "1000000, true",
    "1000001, false",
    "-1, false",
    "2147483647, false"
  })
  void countsRunFromOneToAMillion(int value, boolean accepted) {
    if (accepted) {
      assertThat(SettingRanges.count("limit", value)).isEqualTo(value);
    } else {
      assertThatThrownBy(() -> SettingRanges.count("limit", value))
          .hasMessage("limit must be between 1 and 1000000, was " + value);
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "2147483647 | PT1S | 1 | 0 | 0 | 0 | limit must be between 1 and 1000000, was 2147483647",
        "0 | PT1S | 1 | 2147483647 | 0 | 0 | capacity must be between 0 (none) and 1000000, was"
            + " 2147483647",
        "0 | PT1S | 1 | 10 | 0 | 2000000 | minLimit must be between 1 and 1000000, was 0",
        "0 | PT1S | 1 | 10 | 1 | 2000000 | maxLimit must be between 1 and 1000000, was 2000000",
        "0 | PT1S | 1 | 10 | 5 | 2 | maxLimit must be at least minLimit 5, was 2",
        "1 | P367D | 1 | 0 | 0 | 0 | interval must be at most 366 days, was PT8808H",
        "1 | P1000000D | 1 | 0 | 0 | 0 | interval must be at most 366 days, was PT24000000H"
      })
  void aWindowOutsideTheRangesIsRefusedNamingFieldAndValue(
      int limit,
      String interval,
      int buckets,
      int capacity,
      int minLimit,
      int maxLimit,
      String message) {
    assertThatThrownBy(
            () ->
                new WindowOptions(
                    limit, Duration.parse(interval), buckets, capacity, minLimit, maxLimit))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void theWidestWindowIsAccepted() {
    WindowOptions widest =
        new WindowOptions(0, SettingRanges.MAX_PERIOD, 1, SettingRanges.MAX_COUNT, 1, 1_000_000);
    assertThat(widest.limit()).isEqualTo(SettingRanges.MAX_COUNT);
  }
}
