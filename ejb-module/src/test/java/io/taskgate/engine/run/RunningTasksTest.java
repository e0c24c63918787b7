package io.taskgate.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunningTasksTest {

  @ParameterizedTest(name = "running {0} ms -> re-parked {1} ms")
  @CsvSource({"0, 100", "40, 100", "100, 100", "750, 750", "5000, 5000", "3600000, 5000"})
  void aSecondDeliveryWaitsAsLongAsTheAttemptHasRunWithinBounds(long runningMillis, long delay) {
    assertThat(RunningTasks.redeliveryDelay(Duration.ofMillis(runningMillis).toNanos()))
        .isEqualTo(Duration.ofMillis(delay));
  }
}
