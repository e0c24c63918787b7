package io.taskgate.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.core.task.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a dispatch may ask for: times within 100 years of now, keys and queue names that fit. */
class DispatchOptionsTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final String LONGEST = "k".repeat(DispatchOptions.MAX_NAME_LENGTH);

  @Test
  void theBoundIsOneHundredYearsLikeTheLongestRetryDelay() {
    assertThat(DispatchOptions.MAX_DELAY)
        .isEqualTo(Duration.ofDays(36_500))
        .isEqualTo(RetryPolicy.MAX_DELAY);
    // A timer waits at most the longer of a dispatch's delay and a retry's (which starts when the
    // attempt fails; jitter doubles it at most): in nanoseconds, as the scheduler counts them on
    // System.nanoTime, it leaves more than 50 years of the long's range to spare.
    long longestWait =
        Math.max(
            DispatchOptions.MAX_DELAY.toNanos(), RetryPolicy.MAX_DELAY.multipliedBy(2).toNanos());
    assertThat(longestWait).isLessThan(Long.MAX_VALUE - Duration.ofDays(50 * 365).toNanos());
  }

  @Test
  void theFarthestTimesAndLongestNamesAreAccepted() {
    assertThat(DispatchOptions.now().after(DispatchOptions.MAX_DELAY).dueAt(NOW))
        .isEqualTo(NOW.plus(DispatchOptions.MAX_DELAY));
    Instant latest = NOW.plus(DispatchOptions.MAX_DELAY);
    Instant earliest = NOW.minus(DispatchOptions.MAX_DELAY);
    assertThat(DispatchOptions.now().at(latest).dueAt(NOW)).isEqualTo(latest);
    assertThat(DispatchOptions.now().at(earliest).dueAt(NOW)).isEqualTo(earliest);
    assertThat(DispatchOptions.now().dueAt(NOW)).isEqualTo(NOW);
    DispatchOptions named = DispatchOptions.now().withTaskKey(LONGEST).onQueue(LONGEST);
    assertThat(named.taskKey()).contains(LONGEST);
    assertThat(named.queue()).contains(LONGEST);
    assertThat(DispatchOptions.now().withTaskKey("tenant-ä/ü #1 ✓").taskKey())
        .contains("tenant-ä/ü #1 ✓");
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        bad(
            () -> DispatchOptions.now().after(Duration.ofDays(1_000_000)),
            "delay",
            "PT24000000H",
            "delay must be at most PT876000H (100 years), was PT24000000H"),
        bad(
            () -> DispatchOptions.now().after(Duration.ofHours(9_999_999_999_999L)),
            "delay",
            "PT9999999999999H",
            "delay must be at most PT876000H (100 years), was PT9999999999999H"),
        bad(
            () -> DispatchOptions.now().after(DispatchOptions.MAX_DELAY.plusNanos(1)),
            "delay",
            "PT876000H0.000000001S",
            "delay must be at most PT876000H (100 years), was PT876000H0.000000001S"),
        bad(
            () -> DispatchOptions.now().after(Duration.ofSeconds(-1)),
            "delay",
            "PT-1S",
            "delay must not be negative, was PT-1S"),
        bad(
            () -> DispatchOptions.now().at(Instant.parse("+99999-01-01T00:00:00Z")).dueAt(NOW),
            "at",
            "+99999-01-01T00:00:00Z",
            "at must be within PT876000H (100 years) of now (2026-01-01T00:00:00Z), was"
                + " +99999-01-01T00:00:00Z"),
        bad(
            () -> DispatchOptions.now().at(Instant.MAX).dueAt(NOW),
            "at",
            Instant.MAX.toString(),
            "at must be within PT876000H (100 years) of now (2026-01-01T00:00:00Z), was "
                + Instant.MAX),
        bad(
            () -> DispatchOptions.now().at(Instant.MIN).dueAt(NOW),
            "at",
            Instant.MIN.toString(),
            "at must be within PT876000H (100 years) of now (2026-01-01T00:00:00Z), was "
                + Instant.MIN),
        bad(
            () ->
                DispatchOptions.now()
                    .at(NOW.plus(DispatchOptions.MAX_DELAY).plusNanos(1))
                    .dueAt(NOW),
            "at",
            "2125-12-08T00:00:00.000000001Z",
            "at must be within PT876000H (100 years) of now (2026-01-01T00:00:00Z), was"
                + " 2125-12-08T00:00:00.000000001Z"),
        bad(
            () -> DispatchOptions.now().withTaskKey(LONGEST + "x"),
            "taskKey",
            LONGEST + "x",
            "taskKey must be at most 255 characters, was 256 ('kkkkkkkkkkkkkkkkkkkk…')"),
        bad(
            () -> DispatchOptions.now().onQueue("q".repeat(10_000)),
            "queue",
            "q".repeat(10_000),
            "queue must be at most 255 characters, was 10000 ('qqqqqqqqqqqqqqqqqqqq…')"),
        bad(
            () -> DispatchOptions.now().withTaskKey("a\u0000b"),
            "taskKey",
            "a\u0000b",
            "taskKey must not contain control characters, found U+0000 at index 1"),
        bad(
            () -> DispatchOptions.now().withTaskKey("line\nbreak"),
            "taskKey",
            "line\nbreak",
            "taskKey must not contain control characters, found U+000A at index 4"),
        bad(
            () -> DispatchOptions.now().onQueue("q\u007f"),
            "queue",
            "q\u007f",
            "queue must not contain control characters, found U+007F at index 1"),
        bad(
            () -> DispatchOptions.now().withTaskKey(" "),
            "taskKey",
            " ",
            "taskKey must not be blank, was ' '"),
        bad(
            () ->
                new DispatchOptions(
                    Optional.of(Duration.ofMinutes(1)),
                    Optional.of(NOW),
                    Optional.empty(),
                    Optional.empty()),
            "at",
            NOW.toString(),
            "Give a delay or an instant to dispatch at, not both (delay PT1M, at"
                + " 2026-01-01T00:00:00Z)"));
  }

  @ParameterizedTest(name = "{1}: {3}")
  @MethodSource("refused")
  void aRefusedOptionIsNamedWithItsValue(
      Supplier<Object> build, String option, String value, String message) {
    assertThatThrownBy(build::get)
        .isInstanceOfSatisfying(
            InvalidDispatchOptionException.class,
            e -> {
              assertThat(e.option()).isEqualTo(option);
              assertThat(e.value()).isEqualTo(value);
            })
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  private static Arguments bad(
      Supplier<Object> build, String option, String value, String message) {
    return Arguments.of(build, option, value, message);
  }
}
