package io.taskgate.core.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Recurrence;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OccurrencesTest {
  static final ZoneId PARIS = ZoneId.of("Europe/Paris");
  static final ZoneId UTC = ZoneId.of("UTC");

  static Instant at(String text) {
    return Instant.parse(text);
  }

  static Optional<Instant> maybe(String text) {
    return text == null ? Optional.empty() : Optional.of(at(text));
  }

  @ParameterizedTest(name = "every {0}, start {1}, until {2}, dispatched {3} -> {4}")
  @CsvSource({
    "PT1M, ,                     ,                     2024-01-01T10:00:00Z, 2024-01-01T10:00:00Z",
    "PT1M, 2024-01-01T12:00:00Z, ,                     2024-01-01T10:00:00Z, 2024-01-01T12:00:00Z",
    "PT1M, 2024-01-01T08:00:00Z, ,                     2024-01-01T10:00:00Z, 2024-01-01T08:00:00Z",
    "PT1M, 2024-01-01T12:00:00Z, 2024-01-01T12:00:00Z, 2024-01-01T10:00:00Z, 2024-01-01T12:00:00Z",
    "PT1M, 2024-01-01T12:00:00Z, 2024-01-01T11:59:59Z, 2024-01-01T10:00:00Z, ",
    "PT1M, ,                     2024-01-01T09:00:00Z, 2024-01-01T10:00:00Z, ",
  })
  void anIntervalStartsAtStartAtOrAtDispatch(
      Duration interval, String start, String until, String dispatched, String expected) {
    Recurrence r = Recurrence.every(interval);
    if (start != null) {
      r = r.withStartAt(at(start));
    }
    if (until != null) {
      r = r.withRunUntil(at(until));
    }
    assertThat(Occurrences.first(r, at(dispatched))).isEqualTo(maybe(expected));
  }

  @ParameterizedTest(name = "''{0}'' in {1}, until {2}, dispatched {3} -> {4}")
  @CsvSource({
    "0 9 * * *,    Europe/Paris, ,                     2024-01-01T07:59:00Z, 2024-01-01T08:00:00Z",
    "0 9 * * *,    Europe/Paris, ,                     2024-01-01T08:00:00Z, 2024-01-02T08:00:00Z",
    "0 9 * * *,    Europe/Paris, ,                     2024-07-01T06:30:00Z, 2024-07-01T07:00:00Z",
    "0 9 * * *,    UTC,          ,                     2024-07-01T06:30:00Z, 2024-07-01T09:00:00Z",
    "0 9 * * *,    UTC,          2024-07-01T09:00:00Z, 2024-07-01T06:30:00Z, 2024-07-01T09:00:00Z",
    "0 9 * * *,    UTC,          2024-07-01T08:59:59Z, 2024-07-01T06:30:00Z, ",
    "0 0 30 2 *,   UTC,          ,                     2024-07-01T06:30:00Z, ",
  })
  void aCronStartsAtTheFirstTimeAfterDispatch(
      String cron, ZoneId zone, String until, String dispatched, String expected) {
    Recurrence r = Recurrence.cron(cron, zone);
    if (until != null) {
      r = r.withRunUntil(at(until));
    }
    assertThat(Occurrences.first(r, at(dispatched))).isEqualTo(maybe(expected));
  }

  /** Every minute, previous occurrence at 10:00 (90 seconds for the last rows). */
  @ParameterizedTest(name = "every {0}: previous {1}, now {2} -> {3}")
  @CsvSource({
    // the run finished quickly: the rhythm is kept
    "PT1M,  10:00:00, 10:00:30,           10:01:00",
    "PT1M,  10:00:00, 10:00:00,           10:01:00",
    "PT1M,  10:00:00, 10:00:59.999999999, 10:01:00",
    // a time equal to now has passed
    "PT1M,  10:00:00, 10:01:00,           10:02:00",
    // downtime: missed occurrences are skipped, never replayed
    "PT1M,  10:00:00, 10:07:30,           10:08:00",
    "PT1M,  10:00:00, 10:59:00.5,         11:00:00",
    // a run that ended before its scheduled time (clock skew): still after the previous one
    "PT1M,  10:00:00, 09:58:00,           10:01:00",
    // the grid is anchored at the schedule, not at now
    "PT90S, 10:00:00, 10:04:00,           10:04:30",
    "PT90S, 10:00:00, 10:04:30,           10:06:00",
  })
  void anIntervalKeepsItsGridAndSkipsMissedOccurrences(
      Duration interval, String previous, String now, String expected) {
    Recurrence r = Recurrence.every(interval);
    assertThat(Occurrences.next(r, today(previous), today(now), 1)).contains(today(expected));
  }

  @ParameterizedTest(name = "''{0}'': previous {1}, now {2} -> {3}")
  @CsvSource({
    "*/10 * * * *, 10:00:00, 10:00:05, 10:10:00",
    "*/10 * * * *, 10:00:00, 10:10:00, 10:20:00",
    "*/10 * * * *, 10:00:00, 10:35:00, 10:40:00",
    "*/10 * * * *, 10:00:00, 09:55:00, 10:10:00",
    "0 * * * *,    10:00:00, 10:00:01, 11:00:00",
  })
  void aCronTakesTheFirstTimeAfterTheLaterOfPreviousAndNow(
      String cron, String previous, String now, String expected) {
    Recurrence r = Recurrence.cron(cron, UTC);
    assertThat(Occurrences.next(r, today(previous), today(now), 1)).contains(today(expected));
  }

  @Test
  void aCronFollowsItsZoneAcrossDaylightSaving() {
    Recurrence r = Recurrence.cron("30 2 * * *", PARIS);
    Occurrences o = Occurrences.of(r);
    // 2024-03-30 02:30 CET, then the gap day fires at 03:00 CEST, then 02:30 CEST
    Instant first = o.first(at("2024-03-30T00:00:00Z")).orElseThrow();
    assertThat(first).isEqualTo(at("2024-03-30T01:30:00Z"));
    Instant second = o.next(first, first.plusSeconds(5), 1).orElseThrow();
    assertThat(second).isEqualTo(at("2024-03-31T01:00:00Z"));
    assertThat(o.next(second, second.plusSeconds(5), 2)).contains(at("2024-04-01T00:30:00Z"));
  }

  @ParameterizedTest(name = "until {0}: previous {1} -> {2}")
  @CsvSource({
    "2024-01-01T10:05:00Z, 10:03:00, 10:04:00",
    "2024-01-01T10:05:00Z, 10:04:00, 10:05:00",
    "2024-01-01T10:04:59Z, 10:04:00, ",
    "2024-01-01T10:05:00Z, 10:05:00, ",
  })
  void noTimeAfterRunUntil(String until, String previous, String expected) {
    Recurrence r = Recurrence.every(Duration.ofMinutes(1)).withRunUntil(at(until));
    Optional<Instant> next = Occurrences.next(r, today(previous), today(previous), 1);
    assertThat(next).isEqualTo(expected == null ? Optional.empty() : Optional.of(today(expected)));
  }

  @ParameterizedTest(name = "maxRuns {0}, runs so far {1}: exhausted {2}")
  @CsvSource({
    "1, 0, false",
    "1, 1, true",
    "3, 2, false",
    "3, 3, true",
    "3, 4, true",
  })
  void maxRunsEndsTheSeries(long maxRuns, long runsSoFar, boolean exhausted) {
    Recurrence r = Recurrence.every(Duration.ofMinutes(1)).withMaxRuns(maxRuns);
    assertThat(Occurrences.exhausted(r, runsSoFar)).isEqualTo(exhausted);
    assertThat(Occurrences.next(r, today("10:00:00"), today("10:00:10"), runsSoFar))
        .isEqualTo(exhausted ? Optional.empty() : Optional.of(today("10:01:00")));
  }

  @Test
  void withoutMaxRunsTheSeriesIsNeverUsedUp() {
    assertThat(Occurrences.exhausted(Recurrence.every(Duration.ofSeconds(1)), Long.MAX_VALUE))
        .isFalse();
  }

  @Test
  void anOccurrenceBeyondTheLastInstantIsNone() {
    Recurrence r = Recurrence.every(Recurrence.MAX_INTERVAL);
    assertThat(Occurrences.next(r, Instant.MAX.minusSeconds(10), Instant.MAX.minusSeconds(5), 1))
        .isEmpty();
  }

  @ParameterizedTest(name = "''{0}'' in {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "*/15 * * * * | UTC | PT15M",
        "* * * * * | UTC | PT1M",
        "0 9,17 * * * | UTC | PT8H",
        "0 9 * * MON-FRI | UTC | PT24H",
        "0 9 * * MON | UTC | PT168H",
        "0,59 0,23 1,31 1,12 * | UTC | PT1M",
        "30 2 * * * | UTC | PT24H",
        "30 2 * * * | Europe/Paris | PT23H30M",
        "0 0 1 1 * | UTC | PT8760H",
        "0 0 29 2 * | UTC | PT35064H",
      })
  void theShortestGapOfACron(String cron, ZoneId zone, Duration expected) {
    Recurrence r = Recurrence.cron(cron, zone);
    assertThat(Occurrences.shortestGap(r, at("2024-01-01T00:00:00Z"))).contains(expected);
  }

  @Test
  void theShortestGapOfAnIntervalIsTheInterval() {
    Recurrence r = Recurrence.every(Duration.ofSeconds(42)).withMaxRuns(2);
    assertThat(Occurrences.shortestGap(r, at("2024-01-01T00:00:00Z")))
        .contains(Duration.ofSeconds(42));
  }

  @Test
  void aCronThatFiresAtMostOnceInTheSampleHasNoGap() {
    assertThat(
            Occurrences.shortestGap(Recurrence.cron("0 0 30 2 *", UTC), at("2024-01-01T00:00:00Z")))
        .isEmpty();
    assertThat(
            Occurrences.shortestGap(Recurrence.cron("0 0 29 2 *", UTC), at("2097-01-01T00:00:00Z")))
        .isEmpty();
  }

  @Test
  void missingInstantsAreNamed() {
    Recurrence r = Recurrence.every(Duration.ofMinutes(1));
    assertThatThrownBy(() -> Occurrences.next(r, null, at("2024-01-01T00:00:00Z"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Occurrences: previousScheduled must not be null");
    assertThatThrownBy(() -> Occurrences.first(r, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Occurrences: dispatchedAt must not be null");
    assertThatThrownBy(() -> Occurrences.of(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("recurrence must not be null");
  }

  private static Instant today(String time) {
    return at("2024-01-01T" + time + "Z");
  }
}
