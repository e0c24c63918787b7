package io.taskgate.core.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Backoff;
import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AttemptOutcomes.Ended;
import io.taskgate.core.task.AttemptOutcomes.Next;
import io.taskgate.core.task.AttemptOutcomes.Occurrence;
import io.taskgate.core.task.AttemptOutcomes.Retry;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AttemptOutcomesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Recurrence EVERY_10S = Recurrence.every(Duration.ofSeconds(10));
  private static final RetryPolicy THREE_FIXED =
      new RetryPolicy(3, Backoff.FIXED, Duration.ofSeconds(1), Duration.ofSeconds(1), 0);
  private static final RetryPolicy FOUR_EXPONENTIAL_JITTER =
      new RetryPolicy(4, Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofMinutes(1), 0.5);

  private static Instant at(double seconds) {
    return T0.plusMillis(Math.round(seconds * 1000));
  }

  static Stream<Arguments> completed() {
    return Stream.of(
        Arguments.of("one-shot", null, 1, new Ended(TaskStatus.COMPLETED)),
        Arguments.of("series goes on", EVERY_10S, 1, new Occurrence(at(10))),
        Arguments.of(
            "maxRuns reached", EVERY_10S.withMaxRuns(2), 2, new Ended(TaskStatus.COMPLETED)),
        Arguments.of("maxRuns not yet", EVERY_10S.withMaxRuns(2), 1, new Occurrence(at(10))),
        Arguments.of(
            "runUntil before the next",
            EVERY_10S.withRunUntil(at(5)),
            1,
            new Ended(TaskStatus.COMPLETED)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void completed(String name, Recurrence recurrence, long runs, Next expected) {
    assertThat(AttemptOutcomes.completed(recurrence, T0, at(3), runs)).isEqualTo(expected);
  }

  static Stream<Arguments> failed() {
    return Stream.of(
        Arguments.of(
            "retry, fixed", THREE_FIXED, 1, 0.0, null, new Retry(at(4), Duration.ofSeconds(1))),
        Arguments.of(
            "retry, second", THREE_FIXED, 2, 0.9, null, new Retry(at(4), Duration.ofSeconds(1))),
        Arguments.of(
            "out of attempts, one-shot", THREE_FIXED, 3, 0.0, null, new Ended(TaskStatus.FAILED)),
        Arguments.of(
            "out of attempts, series goes on",
            THREE_FIXED,
            3,
            0.0,
            EVERY_10S,
            new Occurrence(at(10))),
        Arguments.of(
            "out of attempts, series ends",
            THREE_FIXED,
            3,
            0.0,
            EVERY_10S.withMaxRuns(1),
            new Ended(TaskStatus.FAILED)),
        Arguments.of("no retries", RetryPolicy.none(), 1, 0.0, EVERY_10S, new Occurrence(at(10))),
        Arguments.of(
            "exponential, base at random 0.5",
            FOUR_EXPONENTIAL_JITTER,
            3,
            0.5,
            null,
            new Retry(at(7), Duration.ofSeconds(4))),
        Arguments.of(
            "exponential, jitter's low end at random 0",
            FOUR_EXPONENTIAL_JITTER,
            3,
            0.0,
            null,
            new Retry(at(5), Duration.ofSeconds(2))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void failed(
      String name,
      RetryPolicy retry,
      int attempt,
      double random,
      Recurrence recurrence,
      Next expected) {
    assertThat(AttemptOutcomes.failed(retry, attempt, random, recurrence, T0, at(3), 1))
        .isEqualTo(expected);
  }

  static Stream<Arguments> skipped() {
    return Stream.of(
        Arguments.of("slot on an occurrence: that one", EVERY_10S, at(20), new Occurrence(at(20))),
        Arguments.of(
            "slot between occurrences: the next", EVERY_10S, at(21), new Occurrence(at(30))),
        Arguments.of("slot already past: after now", EVERY_10S, at(1), new Occurrence(at(10))),
        Arguments.of(
            "series over by then",
            EVERY_10S.withRunUntil(at(15)),
            at(21),
            new Ended(TaskStatus.COMPLETED)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void skipped(String name, Recurrence recurrence, Instant notBefore, Next expected) {
    assertThat(AttemptOutcomes.skipped(recurrence, T0, notBefore, at(3), 0)).isEqualTo(expected);
  }

  @Test
  void skippingCountsNoRun() {
    // maxRuns 1 and no run so far: the series goes on after a skip
    assertThat(AttemptOutcomes.skipped(EVERY_10S.withMaxRuns(1), T0, at(21), at(3), 0))
        .isEqualTo(new Occurrence(at(30)));
    assertThat(AttemptOutcomes.skipped(EVERY_10S.withMaxRuns(1), T0, at(21), at(3), 1))
        .isEqualTo(new Ended(TaskStatus.COMPLETED));
  }

  @Test
  void onlyAFinalStatusEnds() {
    assertThatThrownBy(() -> new Ended(TaskStatus.IN_PROGRESS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("IN_PROGRESS");
  }
}
