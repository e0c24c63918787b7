package io.taskgate.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RecurrenceTest {
  static final Instant START = Instant.parse("2024-01-01T10:00:00Z");
  static final Instant END = Instant.parse("2024-12-31T23:59:59Z");

  /** A minute list of 990 characters or a few more: valid, but too long to store with its zone. */
  static final String LONG_MINUTES = longMinutes();

  @Test
  void factoriesAndWithersSetOneFieldEach() {
    assertThat(
            Recurrence.every(Duration.ofSeconds(10))
                .withStartAt(START)
                .withRunUntil(END)
                .withMaxRuns(5))
        .isEqualTo(
            new Recurrence(
                Optional.of(Duration.ofSeconds(10)),
                Optional.empty(),
                ZoneId.of("UTC"),
                Optional.of(START),
                Optional.of(END),
                OptionalLong.of(5)));
    assertThat(Recurrence.cron("0 9 * * MON", ZoneId.of("Europe/Paris")).cron())
        .contains("0 9 * * MON");
  }

  static Stream<Arguments> roundTrips() {
    return Stream.of(
        Arguments.of(Recurrence.every(Duration.ofSeconds(10)), "every=PT10S"),
        Arguments.of(
            Recurrence.every(Duration.ofMinutes(5))
                .withStartAt(START)
                .withRunUntil(END)
                .withMaxRuns(7),
            "every=PT5M;start=2024-01-01T10:00:00Z;until=2024-12-31T23:59:59Z;maxRuns=7"),
        Arguments.of(
            Recurrence.cron("0 9 * * MON", ZoneId.of("Europe/Paris")),
            "cron=0 9 * * MON;zone=Europe/Paris"),
        Arguments.of(
            Recurrence.cron("*/15 9-17 * * MON-FRI", ZoneId.of("UTC")).withMaxRuns(1),
            "cron=*/15 9-17 * * MON-FRI;zone=UTC;maxRuns=1"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("roundTrips")
  void encodeAndDecodeRoundTrip(Recurrence recurrence, String text) {
    assertThat(recurrence.encode()).isEqualTo(text);
    assertThat(Recurrence.decode(text)).isEqualTo(recurrence);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        bad(
            () -> Recurrence.every(Duration.ZERO),
            "Invalid recurrence: interval must be positive, was PT0S"),
        bad(
            () -> Recurrence.every(Duration.ofSeconds(-1)),
            "Invalid recurrence: interval must be positive, was PT-1S"),
        bad(
            () -> Recurrence.every(Recurrence.MAX_INTERVAL.plusSeconds(1)),
            "Invalid recurrence: interval must be at most PT876000H (100 years), was"
                + " PT876000H1S"),
        bad(
            () -> Recurrence.cron(LONG_MINUTES + " * * * *", ZoneId.of("UTC")),
            "Invalid recurrence: its text form must be at most 1000 characters, was 1014"
                + " (shorten the cron expression)"),
        bad(
            () -> Recurrence.cron(" ", ZoneId.of("UTC")),
            "Invalid recurrence: cron expression must not be blank"),
        bad(
            () -> Recurrence.cron("61 * * * *", ZoneId.of("UTC")),
            "Invalid recurrence: cron '61 * * * *': minute field '61' is out of range 0-59"),
        bad(
            () -> Recurrence.cron("0 9 * *", ZoneId.of("UTC")),
            "Invalid recurrence: cron '0 9 * *' must have 5 fields (minute hour day-of-month"
                + " month day-of-week), has 4"),
        bad(() -> Recurrence.cron("0 9 * * *", null), "Invalid recurrence: zone must not be null"),
        bad(
            () -> Recurrence.every(Duration.ofSeconds(1)).withMaxRuns(0),
            "Invalid recurrence: maxRuns must be at least 1, was 0"),
        bad(
            () -> Recurrence.cron("0 9 * * *", ZoneId.of("UTC")).withStartAt(START),
            "Invalid recurrence: a cron recurrence takes its times from the expression: startAt"
                + " is not allowed"),
        bad(
            () ->
                new Recurrence(
                    Optional.empty(),
                    Optional.empty(),
                    ZoneId.of("UTC"),
                    Optional.empty(),
                    Optional.empty(),
                    OptionalLong.empty()),
            "Invalid recurrence: a recurrence needs exactly one of an interval and a cron"
                + " expression"),
        bad(
            () -> Recurrence.decode("every"),
            "Invalid recurrence: cannot read recurrence 'every': 'every' is not key=value"),
        bad(
            () -> Recurrence.decode("zone=UTC"),
            "Invalid recurrence: cannot read recurrence 'zone=UTC': neither every= nor cron="),
        bad(
            () -> Recurrence.decode("every=10s"),
            "Invalid recurrence: cannot read recurrence 'every=10s': Text cannot be parsed to a"
                + " Duration"),
        bad(
            () -> Recurrence.decode("every=PT1S;maxRuns=x"),
            "Invalid recurrence: cannot read recurrence 'every=PT1S;maxRuns=x': For input"
                + " string: \"x\""),
        bad(
            () -> Recurrence.decode("cron=0 9 * * *;zone=Mars/Olympus"),
            "Invalid recurrence: cannot read recurrence 'cron=0 9 * * *;zone=Mars/Olympus':"
                + " Unknown time-zone ID: Mars/Olympus"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalid")
  void invalidValuesAreRefusedWithAClearMessage(Supplier<Object> build, String message) {
    assertThatThrownBy(build::get).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  @Test
  void theLongestIntervalAndTextFormAreAccepted() {
    assertThat(Recurrence.every(Recurrence.MAX_INTERVAL).interval())
        .contains(Duration.ofDays(36_500));
    String cron = LONG_MINUTES.substring(0, LONG_MINUTES.lastIndexOf(',', 977)) + " * * * *";
    Recurrence longest = Recurrence.cron(cron, ZoneId.of("UTC"));
    assertThat(longest.encode().length()).isLessThanOrEqualTo(Recurrence.MAX_ENCODED_LENGTH);
    assertThat(Recurrence.decode(longest.encode())).isEqualTo(longest);
  }

  private static String longMinutes() {
    StringBuilder minutes = new StringBuilder("0");
    for (int i = 1; minutes.length() < 990; i++) {
      minutes.append(',').append(i % 60);
    }
    return minutes.toString();
  }

  private static Arguments bad(Supplier<Object> build, String message) {
    return Arguments.of(build, message);
  }
}
