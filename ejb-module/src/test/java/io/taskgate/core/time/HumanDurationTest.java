package io.taskgate.core.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HumanDurationTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0 ms",
    "200, 200 ms",
    "1000, 1 s",
    "1500, 1.5 s",
    "10000, 10 s",
    "60000, 1 min",
    "90000, 1 min 30 s",
    "200000, 3 min 20 s",
    "3600000, 1 h",
    "7200000, 2 h",
    "7500000, 2 h 5 min",
    "604800000, 7 d",
    "129600000, 1 d 12 h",
    "86400000, 1 d"
  })
  void aDurationReadsAsPeopleSayIt(long millis, String expected) {
    assertThat(HumanDuration.of(Duration.ofMillis(millis))).isEqualTo(expected);
  }

  @Test
  void nothingReadsAsNothing() {
    assertThat(HumanDuration.of(null)).isEmpty();
  }
}
