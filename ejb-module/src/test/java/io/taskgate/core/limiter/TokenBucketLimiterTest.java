package io.taskgate.core.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenBucketLimiterTest {

  @ParameterizedTest(name = "capacity {0}, {1} per {2} ms: {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          3 | 1 | 1000 | 0 3 ok; 0 1 wait1000; 999 1 wait1; 1000 1 ok; 1000 1 wait1000
          3 | 1 | 1000 | 0 1 ok; 0 avail 2; 500 avail 2; 1000 avail 3; 1000 idle true; 5000 avail 3
          5 | 2 | 1000 | 0 5 ok; 0 3 wait1500; 500 avail 1; 1499 3 waitns1000000; 1500 3 ok; 1500 avail 0
          5 | 2 | 1000 | 0 5 ok; 0 5 wait2500; 2000 avail 4; 2500 5 ok; 2500 idle false
          1 | 3 | 1000 | 0 1 ok; 0 1 waitns333333334; 333 1 waitns333334; 334 1 ok; 334 1 waitns333333334; 1000 1 ok
          2 | 3 | 1000 | 0 2 ok; 334 1 ok; 334 1 waitns332666667; 666 1 waitns666667; 667 1 ok
          3 | 1 | 1000 | 0 3 ok; 0 0 wait1000; 0 probe0 wait1000; 1000 0 ok; 1000 avail 1
          3 | 1 | 1000 | 0 3 ok; 0 probe2 wait2000; 2000 probe2 ok; 2000 probe3 wait1000; 2000 2 ok
          3 | 1 | 1000 | 1000 3 ok; 500 1 wait1500; 500 avail 0; 2000 1 ok
          2 | 1 | 100  | 0 2 ok; 10000 avail 2; 10000 2 ok; 10050 1 wait50
          """)
  void scripts(int capacity, int tokensPerPeriod, long periodMs, String script) {
    Script.run(
        new TokenBucketLimiter(
            new TokenBucketLimiterOptions(capacity, tokensPerPeriod, Duration.ofMillis(periodMs))),
        script);
  }

  @Test
  void refusalNamesTokensAndRequest() {
    var limiter =
        new TokenBucketLimiter(new TokenBucketLimiterOptions(3, 1, Duration.ofSeconds(1)));
    limiter.tryAcquire(2, 0);

    var lease = limiter.tryAcquire(2, 0);

    assertThat(lease.reason()).hasValue("token bucket has 1 of 3 tokens, 2 requested");
    assertThat(lease.retryAfter()).hasValue(Duration.ofSeconds(1));
  }

  @Test
  void refillDoesNotDriftOverManySmallSteps() {
    // 3 tokens per second, read every millisecond for a minute: exactly 180 tokens accrue.
    var limiter =
        new TokenBucketLimiter(new TokenBucketLimiterOptions(1000, 3, Duration.ofSeconds(1)));
    limiter.tryAcquire(1000, 0);
    int granted = 0;
    for (long ms = 1; ms <= 60_000; ms++) {
      if (limiter.tryAcquire(1, Script.ms(ms)).isAcquired()) {
        granted++;
      }
    }
    assertThat(granted).isEqualTo(180);
  }
}
