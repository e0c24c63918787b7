package io.taskgate.core.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConcurrencyLimiterTest {

  @ParameterizedTest(name = "limit {0}: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          1 | 0 1 ok; 0 1 no; 0 avail 0; 0 close 0; 0 avail 1; 0 1 ok
          2 | 0 1 ok; 0 1 ok; 0 1 no; 5000 1 no; 5000 close 1; 5000 1 ok; 5000 1 no
          3 | 0 2 ok; 0 2 no; 0 1 ok; 0 close 0; 0 2 ok; 0 avail 0
          2 | 0 2 ok; 0 close 0; 0 close 0; 0 avail 2; 0 1 ok; 0 1 ok; 0 1 no
          2 | 0 2 ok; 0 1 no; 0 close 1; 0 avail 0; 0 close 0; 0 avail 2
          2 | 0 0 ok; 0 idle true; 0 2 ok; 0 0 no; 0 idle false; 0 close 2; 0 idle true
          2 | 0 probe2 ok; 0 1 ok; 0 probe2 no; 0 probe1 ok; 0 probe0 ok; 0 1 ok; 0 probe0 no
          """)
  void scripts(int permitLimit, String script) {
    Script.run(new ConcurrencyLimiter(new ConcurrencyLimiterOptions(permitLimit)), script);
  }

  @Test
  void refusalExplainsTheLimit() {
    var limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions(2));
    limiter.tryAcquire(2, 0);

    assertThat(limiter.tryAcquire(1, 0).reason())
        .hasValue("concurrency limit reached: 2 of 2 permits in use, 1 requested");
  }
}
