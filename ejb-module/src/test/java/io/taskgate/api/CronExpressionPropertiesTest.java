package io.taskgate.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneRules;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link CronExpression#nextAfter} against brute force, minute by minute over a bounded window: in
 * UTC, and in daylight-saving zones near their transitions.
 */
class CronExpressionPropertiesTest {
  static final int WINDOW_DAYS = 31;
  static final int DST_WINDOW_DAYS = 8;
  static final Instant FROM = Instant.parse("1999-01-01T00:00:00Z");
  static final Instant TO = Instant.parse("2031-01-01T00:00:00Z");

  @Provide
  Arbitrary<String> expressions() {
    return CronGenerators.expressions();
  }

  @Provide
  Arbitrary<Instant> instants() {
    return Arbitraries.longs()
        .between(FROM.getEpochSecond(), TO.getEpochSecond())
        .map(Instant::ofEpochSecond);
  }

  /** An instant within 36 hours either side of a daylight-saving change in one of a few zones. */
  @Provide
  Arbitrary<ZonedDateTime> nearTransitions() {
    Arbitrary<ZoneId> zones =
        Arbitraries.of(
                "Europe/Paris",
                "America/New_York",
                "Australia/Lord_Howe",
                "America/Sao_Paulo",
                "Asia/Kolkata")
            .map(ZoneId::of);
    return Combinators.combine(
            zones, instants(), Arbitraries.longs().between(-36 * 3600, 36 * 3600))
        .as(
            (zone, base, offsetSeconds) -> {
              Instant t =
                  Optional.ofNullable(zone.getRules().nextTransition(base))
                      .map(tr -> tr.getInstant())
                      .orElse(base);
              return t.plusSeconds(offsetSeconds).atZone(zone);
            });
  }

  @Property(tries = 400)
  void inUtcTheNextTimeIsTheFirstMatchingMinute(
      @ForAll("expressions") String expression, @ForAll("instants") Instant t) {
    CronExpression cron = CronExpression.parse(expression);
    ZonedDateTime start = t.plusNanos(t.getEpochSecond() % 7 * 123_456_789L).atZone(ZoneOffset.UTC);
    Optional<ZonedDateTime> next = cron.nextAfter(start);

    LocalDateTime minute = start.toLocalDateTime().truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
    LocalDateTime windowEnd = minute.plusDays(WINDOW_DAYS);
    if (next.isPresent()) {
      ZonedDateTime n = next.get();
      assertThat(n).isAfter(start);
      assertThat(n.getSecond()).isZero();
      assertThat(n.getNano()).isZero();
      assertThat(cron.matches(n.toLocalDateTime())).as("%s matches %s", n, expression).isTrue();
    }
    LocalDateTime limit =
        next.map(ZonedDateTime::toLocalDateTime).filter(windowEnd::isAfter).orElse(windowEnd);
    for (; minute.isBefore(limit); minute = minute.plusMinutes(1)) {
      assertThat(cron.matches(minute))
          .as("'%s' after %s skipped %s for %s", expression, start, minute, next)
          .isFalse();
    }
  }

  @Property(tries = 400)
  void nearDaylightSavingChangesTheNextTimeIsTheFirstLocalMatchNotYetFired(
      @ForAll("expressions") String expression, @ForAll("nearTransitions") ZonedDateTime start) {
    CronExpression cron = CronExpression.parse(expression);
    Optional<ZonedDateTime> next = cron.nextAfter(start);
    Optional<Instant> expected = bruteForce(cron, start, DST_WINDOW_DAYS);

    if (expected.isPresent()) {
      assertThat(next.map(ZonedDateTime::toInstant))
          .as("'%s' after %s", expression, start)
          .contains(expected.get());
      assertThat(next.get().getZone()).isEqualTo(start.getZone());
    } else {
      next.ifPresent(
          n ->
              assertThat(n.toInstant())
                  .as("'%s' after %s", expression, start)
                  .isAfter(start.toInstant().plus(Duration.ofDays(DST_WINDOW_DAYS - 1))));
    }
  }

  @Property(tries = 200)
  void successiveTimesStrictlyIncrease(
      @ForAll("expressions") String expression, @ForAll("nearTransitions") ZonedDateTime start) {
    CronExpression cron = CronExpression.parse(expression);
    ZonedDateTime t = start;
    for (int i = 0; i < 50; i++) {
      Optional<ZonedDateTime> next = cron.nextAfter(t);
      if (next.isEmpty()) {
        return;
      }
      assertThat(next.get().toInstant()).isAfter(t.toInstant());
      t = next.get();
    }
  }

  /**
   * The reference: walk local minutes after {@code start}; the first that matches and fires after
   * {@code start} wins. A local time fires at its earliest instant, or at the end of the gap it
   * falls in.
   */
  static Optional<Instant> bruteForce(CronExpression cron, ZonedDateTime start, int days) {
    ZoneRules rules = start.getZone().getRules();
    LocalDateTime minute = start.toLocalDateTime().truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
    LocalDateTime end = minute.plusDays(days);
    for (; minute.isBefore(end); minute = minute.plusMinutes(1)) {
      if (!cron.matches(minute)) {
        continue;
      }
      LocalDateTime local = minute;
      List<ZoneOffset> offsets = rules.getValidOffsets(local);
      Instant fires =
          offsets.isEmpty()
              ? rules.getTransition(local).getInstant()
              : offsets.stream().map(local::toInstant).min(Comparator.naturalOrder()).get();
      if (fires.isAfter(start.toInstant())) {
        return Optional.of(fires);
      }
    }
    return Optional.empty();
  }
}
