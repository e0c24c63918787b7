package io.taskgate.core.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlidingLogLimiterTest {

  @ParameterizedTest(name = "{0} per {1} ms: {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          3 | 1000 | 0 1 ok; 100 1 ok; 200 1 ok; 300 1 wait700; 999 1 wait1; 1000 1 ok; 1000 1 wait100; 1100 1 ok
          3 | 1000 | 0 2 ok; 500 1 ok; 600 2 wait400; 1000 2 ok; 1000 avail 0; 1500 avail 1
          3 | 1000 | 0 3 ok; 999 1 wait1; 1000 3 ok; 1999 idle false; 2000 idle true
          3 | 1000 | 0 3 ok; 0 0 wait1000; 0 probe2 wait1000; 1000 0 ok; 1000 probe3 ok
          1 | 1000 | 0 1 ok; 1 1 wait999; 1000 1 ok; 1999 1 wait1
          3 | 1000 | 1000 1 ok; 500 avail 2; 500 2 ok; 600 1 wait1400; 2000 1 ok
          2 | 1000 | 0 1 ok; 900 1 ok; 1000 1 ok; 1000 1 wait900; 1900 1 ok
          """)
  void scripts(int permitLimit, long windowMs, String script) {
    Script.run(
        new SlidingLogLimiter(
            new SlidingLogLimiterOptions(permitLimit, Duration.ofMillis(windowMs))),
        script);
  }

  @Test
  void refusalCountsThePermitsInTheWindow() {
    var limiter = new SlidingLogLimiter(new SlidingLogLimiterOptions(3, Duration.ofSeconds(1)));
    limiter.tryAcquire(3, 0);

    assertThat(limiter.tryAcquire(1, Script.ms(10)).reason())
        .hasValue(
            "sliding log limit reached: 3 of 3 permits granted in the last PT1S, 1 requested");
  }
}
