package io.taskgate.core.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.CronGenerators;
import io.taskgate.api.Recurrence;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * A series driven by random run lengths and downtimes: each next occurrence is later than the
 * previous one and than now, lies on the schedule, and is the first schedule time after both.
 */
class OccurrencesPropertiesTest {

  @Provide
  Arbitrary<String> expressions() {
    return CronGenerators.expressions();
  }

  @Property(tries = 500)
  void intervalOccurrencesKeepTheGridAndSkipOnlyWhatHasPassed(
      @ForAll @LongRange(min = 1, max = 100_000) long intervalMillis,
      @ForAll @LongRange(min = 0, max = 4_000_000_000_000L) long firstMillis,
      @ForAll @LongRange(min = 1, max = 10_000_000) long untilAfterMillis,
      @ForAll @Size(min = 1, max = 60) List<@LongRange(min = -50_000, max = 500_000) Long> lags) {
    Duration interval = Duration.ofMillis(intervalMillis);
    Instant first = Instant.ofEpochMilli(firstMillis);
    Instant until = first.plusMillis(untilAfterMillis);
    Recurrence r = Recurrence.every(interval).withStartAt(first).withRunUntil(until);

    Instant previous = Occurrences.first(r, first.minusSeconds(1)).orElseThrow();
    assertThat(previous).isEqualTo(first);
    long runs = 0;
    for (long lag : lags) {
      Instant now = previous.plusMillis(lag);
      Instant after = now.isAfter(previous) ? now : previous;
      Optional<Instant> next = Occurrences.next(r, previous, now, ++runs);
      Instant grid =
          first.plus(interval.multipliedBy(Duration.between(first, after).dividedBy(interval) + 1));
      if (grid.isAfter(until)) {
        assertThat(next).isEmpty();
        return;
      }
      Instant n = next.orElseThrow();
      assertThat(n).isAfter(previous).isAfter(now).isBeforeOrEqualTo(until);
      assertThat(Duration.between(first, n).toNanos() % interval.toNanos()).isZero();
      assertThat(n.minus(interval)).as("no later grid time was skipped").isBeforeOrEqualTo(after);
      previous = n;
    }
  }

  @Property(tries = 200)
  void cronOccurrencesIncreaseAndStayAfterNow(
      @ForAll("expressions") String expression,
      @ForAll @LongRange(min = 946_684_800L, max = 1_900_000_000L) long startSeconds,
      @ForAll @Size(min = 1, max = 20) List<@LongRange(min = -600, max = 200_000) Long> lags) {
    Recurrence r = Recurrence.cron(expression, ZoneId.of("Europe/Paris"));
    Occurrences o = Occurrences.of(r);
    Optional<Instant> first = o.first(Instant.ofEpochSecond(startSeconds));
    if (first.isEmpty()) {
      return;
    }
    Instant previous = first.get();
    long runs = 0;
    for (long lag : lags) {
      Instant now = previous.plusSeconds(lag);
      Optional<Instant> next = o.next(previous, now, ++runs);
      if (next.isEmpty()) {
        return;
      }
      assertThat(next.get()).isAfter(previous).isAfter(now);
      previous = next.get();
    }
  }
}
