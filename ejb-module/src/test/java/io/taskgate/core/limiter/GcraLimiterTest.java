package io.taskgate.core.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GcraLimiterTest {

  @ParameterizedTest(name = "{0} per {1} ms, burst {2}: {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          10 | 1000 | 3 | 0 3 ok; 0 1 wait100; 99 1 wait1; 100 1 ok; 100 1 wait100; 1000 avail 3; 1000 idle true
          10 | 1000 | 1 | 0 1 ok; 50 1 wait50; 100 1 ok; 150 avail 0; 200 avail 1; 200 idle true
          10 | 1000 | 5 | 0 2 ok; 0 avail 3; 0 4 wait100; 100 4 ok; 100 avail 0; 100 idle false; 600 idle true
          10 | 1000 | 5 | 0 5 ok; 0 probe5 wait500; 0 0 wait100; 100 0 ok; 100 probe1 ok; 100 avail 1
          3  | 1000 | 1 | 0 1 ok; 0 1 waitns333333334
          10 | 1000 | 2 | 1000 2 ok; 900 1 wait200; 1100 1 ok
          60 | 60000 | 1 | 0 1 ok; 999 1 wait1; 1000 1 ok; 1000 avail 0
          """)
  void scripts(int permits, long periodMs, int burst, String script) {
    Script.run(
        new GcraLimiter(new GcraLimiterOptions(permits, Duration.ofMillis(periodMs), burst)),
        script);
  }

  @Test
  void emissionIntervalRoundsUpSoTheRateIsNeverExceeded() {
    assertThat(new GcraLimiterOptions(3, Duration.ofSeconds(1), 1).emissionIntervalNanos())
        .isEqualTo(333_333_334L);
    assertThat(new GcraLimiterOptions(4, Duration.ofSeconds(1), 1).emissionIntervalNanos())
        .isEqualTo(250_000_000L);
  }

  @Test
  void refusalSaysWhatIsAvailable() {
    var limiter = new GcraLimiter(new GcraLimiterOptions(10, Duration.ofSeconds(1), 3));
    limiter.tryAcquire(2, 0);

    assertThat(limiter.tryAcquire(3, 0).reason())
        .hasValue("rate exceeded: 3 requested, 1 of a burst of 3 available");
  }
}
