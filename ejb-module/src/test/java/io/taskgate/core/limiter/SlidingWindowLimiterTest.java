package io.taskgate.core.limiter;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlidingWindowLimiterTest {

  @ParameterizedTest(name = "{0} per {1} ms in {2} segments: {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          4 | 1000 | 4 | 0 2 ok; 250 2 ok; 300 1 wait700; 999 avail 0; 1000 avail 2; 1000 2 ok; 1000 1 wait250; 1250 avail 2; 1999 idle false; 2000 idle true
          4 | 1000 | 4 | 0 1 ok; 250 1 ok; 500 2 ok; 600 3 wait900; 1250 avail 2; 1499 probe3 waitns1000000; 1500 3 ok
          4 | 1000 | 4 | 0 4 ok; 5000 4 ok; 5000 avail 0
          4 | 1000 | 4 | 0 4 ok; 0 0 wait1000; 0 probe4 wait1000; 1000 0 ok
          2 | 1000 | 1 | 0 2 ok; 999 1 wait1; 1000 2 ok
          3 | 900  | 3 | 100 1 ok; 400 1 ok; 700 1 ok; 800 1 wait100; 900 1 ok; 900 1 wait300
          4 | 1000 | 4 | 600 2 ok; 100 2 ok; 100 1 wait1400
          """)
  void scripts(int permitLimit, long windowMs, int segments, String script) {
    Script.run(
        new SlidingWindowLimiter(
            new SlidingWindowLimiterOptions(permitLimit, Duration.ofMillis(windowMs), segments)),
        script);
  }
}
