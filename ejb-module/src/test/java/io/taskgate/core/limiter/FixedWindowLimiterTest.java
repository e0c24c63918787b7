package io.taskgate.core.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FixedWindowLimiterTest {

  @ParameterizedTest(name = "{0} per {1} ms: {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          2 | 1000 | 0 1 ok; 500 1 ok; 999 1 wait1; 1000 2 ok; 1500 1 wait500; 2000 avail 2
          2 | 1000 | 1700 2 ok; 1700 1 wait300; 1999 avail 0; 2000 1 ok; 2000 avail 1
          2 | 1000 | 0 2 ok; 0 0 wait1000; 0 probe1 wait1000; 1000 0 ok; 1000 probe2 ok; 1000 avail 2
          2 | 1000 | 0 1 ok; 999 idle false; 1000 idle true; 0 idle false
          3 | 1000 | 0 2 ok; 0 2 wait1000; 0 1 ok; 0 avail 0
          2 | 1000 | 1500 2 ok; 900 1 wait1100; 2000 1 ok
          """)
  void scripts(int permitLimit, long windowMs, String script) {
    Script.run(
        new FixedWindowLimiter(
            new FixedWindowLimiterOptions(permitLimit, Duration.ofMillis(windowMs))),
        script);
  }

  @Test
  void windowsAreAlignedOnNegativeReadingsToo() {
    var limiter = new FixedWindowLimiter(new FixedWindowLimiterOptions(1, Duration.ofSeconds(1)));

    assertThat(limiter.tryAcquire(1, Script.ms(-1500)).isAcquired()).isTrue();
    assertThat(limiter.tryAcquire(1, Script.ms(-1100)).retryAfterNanos()).hasValue(Script.ms(100));
    assertThat(limiter.tryAcquire(1, Script.ms(-1000)).isAcquired()).isTrue();
  }
}
