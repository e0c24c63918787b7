package io.taskgate.engine.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.InvalidDispatchOptionException;
import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskTooLargeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DispatchLimitsTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final String TYPE = "io.example.Report";

  @Test
  void aPayloadUpToTheLimitPassesAndOneByteMoreIsRefusedNamingTypeSizeAndKey() {
    DispatchLimits limits = DispatchLimits.of(20);
    String twenty = "{\"name\":\"" + "é".repeat(4) + "a\"}"; // é is 2 bytes in UTF-8
    assertThat(twenty.getBytes(StandardCharsets.UTF_8)).hasSize(20);
    limits.checkPayload(TYPE, twenty);

    assertThatThrownBy(() -> limits.checkPayload(TYPE, twenty.replace("a\"", "ab\"")))
        .isInstanceOfSatisfying(
            TaskTooLargeException.class,
            e -> {
              assertThat(e.taskType()).isEqualTo(TYPE);
              assertThat(e.bytes()).isEqualTo(21);
              assertThat(e.maxBytes()).isEqualTo(20);
            })
        .hasMessage(
            "Task io.example.Report is 21 bytes as JSON, more than"
                + " taskgate.dispatch.max-payload-bytes (20): keep large data elsewhere and give"
                + " the task a reference to it");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "a", "é", "€", "😀", "a😀é€", "\ud800", "x\udc00y", "{\"k\":\"\\u0000\"}"})
  void theUtf8LengthIsWhatTheEncoderWrites(String text) {
    assertThat(DispatchLimits.utf8Length(text))
        .isEqualTo(
            text.replace("\ud800", "\u0800")
                .replace("\udc00", "\u0800") // lone surrogates: 3
                .getBytes(StandardCharsets.UTF_8)
                .length);
  }

  @Test
  void theDefaultLimitIsOneMebibyte() {
    assertThat(DispatchLimits.parseMaxPayloadBytes(Optional.empty())).isEqualTo(1_048_576);
    assertThat(DispatchLimits.parseMaxPayloadBytes(Optional.of(" 4096 "))).isEqualTo(4096);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "1MB", "", "3000000000"})
  void aBadLimitIsRefusedNamingTheKeyAndValue(String value) {
    assertThatThrownBy(() -> DispatchLimits.parseMaxPayloadBytes(Optional.of(value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "taskgate.dispatch.max-payload-bytes must be a whole number of bytes from 1 to"
                + " 2147483647, was '"
                + value
                + "'");
  }

  @Test
  void aRecurrenceStartsWithinTheBound() {
    Instant latest = NOW.plus(DispatchOptions.MAX_DELAY);
    Recurrence hourly = Recurrence.every(Duration.ofHours(1));
    assertThat(DispatchLimits.firstOccurrence(hourly, NOW)).isEqualTo(NOW);
    assertThat(DispatchLimits.firstOccurrence(hourly.withStartAt(latest), NOW)).isEqualTo(latest);
    assertThat(DispatchLimits.firstOccurrence(Recurrence.cron("0 9 * * *", ZoneId.of("UTC")), NOW))
        .isEqualTo(Instant.parse("2026-01-01T09:00:00Z"));
  }

  @ParameterizedTest
  @CsvSource({"+99999-01-01T00:00:00Z", "2125-12-08T00:00:01Z", "1926-01-24T23:59:59Z"})
  void aRecurrenceStartingOutOfRangeIsRefusedNamingIt(String start) {
    Recurrence far = Recurrence.every(Duration.ofHours(1)).withStartAt(Instant.parse(start));

    assertThatThrownBy(() -> DispatchLimits.firstOccurrence(far, NOW))
        .isInstanceOfSatisfying(
            InvalidDispatchOptionException.class,
            e -> {
              assertThat(e.option()).isEqualTo("recurrence");
              assertThat(e.value()).isEqualTo(far.encode());
            })
        .hasMessage(
            "The first occurrence of recurrence "
                + far.encode()
                + " must be within PT876000H (100 years) of now (2026-01-01T00:00:00Z), was "
                + start);
  }

  @Test
  void aRecurrenceWithoutOccurrencesIsRefused() {
    Recurrence over = Recurrence.every(Duration.ofHours(1)).withRunUntil(NOW.minusSeconds(1));

    assertThatThrownBy(() -> DispatchLimits.firstOccurrence(over, NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Recurrence every=PT1H;until=2025-12-31T23:59:59Z has no occurrence after"
                + " 2026-01-01T00:00:00Z");
  }
}
