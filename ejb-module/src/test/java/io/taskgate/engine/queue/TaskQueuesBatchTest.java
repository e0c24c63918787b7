package io.taskgate.engine.queue;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskQueuesBatchTest {

  @ParameterizedTest(name = "{0} ns per task, {1} waiting, parallelism {2} -> {3}")
  @CsvSource({
    // slow tasks: one at a time, whatever the backlog
    "10000000, 1000, 4, 1",
    "50000000, 1000, 1, 1",
    // short tasks: what fits in 10 ms, capped at 16
    "1000000, 1000, 4, 10",
    "100000, 1000, 4, 16",
    "0, 1000, 4, 16",
    // never more than a fair share of the backlog
    "100000, 0, 4, 1",
    "100000, 7, 4, 2",
    "100000, 40, 4, 11",
    "100000, 40, 1, 16"
  })
  void aWorkerTakesWhatFitsInTenMillisecondsAndItsShare(
      long nanosPerTask, int waiting, int parallelism, int expected) {
    assertThat(TaskQueues.batchSize(nanosPerTask, waiting, parallelism)).isEqualTo(expected);
  }
}
