package io.taskgate.core.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.taskgate.api.SettingRanges;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** What holds for every limit: its checks, its derived values and its text, over random values. */
class LimitPropertyTest {

  @Provide
  Arbitrary<Integer> counts() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(-3, 3),
        Arbitraries.integers(),
        Arbitraries.integers().between(1, 2_000_000));
  }

  @Provide
  Arbitrary<Long> periodNanos() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(-3, 3),
        Arbitraries.longs(),
        Arbitraries.longs().between(1, 400L * 24 * 3_600_000_000_000L));
  }

  @Provide
  Arbitrary<LimitSource> sources() {
    return Arbitraries.of(
        LimitSource.annotation("@RateLimit"),
        LimitSource.config("taskgate.limiter.q."),
        LimitSource.jsonFields());
  }

  @Property(tries = 500)
  void aLimitIsBuiltExactlyWhenItsFieldsAreInRangeElseTheFirstBadOneIsNamed(
      @ForAll("counts") int permits,
      @ForAll("periodNanos") long periodNanos,
      @ForAll("counts") int burst) {
    Duration period = Duration.ofNanos(periodNanos);
    InvalidLimitException refused =
        catchThrowableOfType(() -> new Limit(permits, period, burst), InvalidLimitException.class);

    String firstBad =
        permits < 1 ? "permits" : periodNanos < 1 ? "period" : burst < 1 ? "burst" : null;
    if (firstBad == null) {
      assertThat(refused).isNull();
      return;
    }
    Object value =
        switch (firstBad) {
          case "permits" -> permits;
          case "period" -> period;
          default -> burst;
        };
    assertThat(refused.option()).isEqualTo(firstBad);
    assertThat(refused.value()).isEqualTo(String.valueOf(value));
    assertThat(refused.getMessage()).startsWith(firstBad + " ").endsWith(", was " + value);
  }

  @Property(tries = 500)
  void theEmissionIntervalIsTheShortestSpacingThatKeepsToTheRate(
      @ForAll @IntRange(min = 1) int permits, @ForAll @LongRange(min = 1) long periodNanos) {
    long t = Limit.of(permits, Duration.ofNanos(periodNanos)).emissionIntervalNanos();

    BigInteger k = BigInteger.valueOf(permits);
    assertThat(BigInteger.valueOf(t).multiply(k))
        .isGreaterThanOrEqualTo(BigInteger.valueOf(periodNanos));
    assertThat(BigInteger.valueOf(t - 1).multiply(k)).isLessThan(BigInteger.valueOf(periodNanos));
  }

  @Property(tries = 500)
  void aLimitWrittenAsTextReadsBackTheSameFromEverySource(
      @ForAll @IntRange(min = 1) int permits,
      @ForAll @LongRange(min = 1) long periodNanos,
      @ForAll @IntRange(min = 1) int burst,
      @ForAll("sources") LimitSource source) {
    Limit limit = new Limit(permits, Duration.ofNanos(periodNanos), burst);
    Map<String, String> text =
        Map.of(
            Limit.PERMITS, String.valueOf(permits),
            Limit.PERIOD, limit.period().toString(),
            Limit.BURST, String.valueOf(burst));

    assertThat(LimitText.of(source, text::get).limit()).isEqualTo(limit);
  }

  @Property(tries = 500)
  void textThatIsNoWholeNumberIsRefusedNamingTheOptionAndTheValue(
      @ForAll String value, @ForAll("sources") LimitSource source) {
    Integer expected;
    try {
      expected = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      expected = null;
    }
    LimitText text = LimitText.of(source, option -> option.equals("burst") ? value : null);
    InvalidLimitException refused =
        catchThrowableOfType(() -> text.integer("burst", 1), InvalidLimitException.class);

    if (expected != null) {
      assertThat(refused).isNull();
      assertThat(text.integer("burst", 1)).isEqualTo(expected);
    } else {
      assertThat(refused.option()).isEqualTo("burst");
      assertThat(refused.value()).isEqualTo(value);
      assertThat(refused.getMessage()).contains("burst").contains(value).contains("whole number");
    }
  }

  @Property(tries = 500)
  void aTaskRateIsExactlyWhatTheSettingRangesAccept(
      @ForAll("counts") int permits,
      @ForAll("periodNanos") long periodNanos,
      @ForAll("counts") int burst) {
    Duration period = Duration.ofNanos(periodNanos);
    IllegalArgumentException ranges =
        catchThrowableOfType(
            () -> SettingRanges.taskRate(permits, period, burst), IllegalArgumentException.class);
    IllegalArgumentException refused =
        catchThrowableOfType(
            () -> Limit.taskRate(permits, period, burst), IllegalArgumentException.class);

    if (ranges == null) {
      assertThat(refused).isNull();
      assertThat(Limit.taskRate(permits, period, burst))
          .isEqualTo(new Limit(permits, period, burst));
    } else {
      assertThat(refused).hasMessage(ranges.getMessage());
    }
  }

  @Property(tries = 300)
  void aShareNeverRunsFasterThanItsPartOfTheRate(
      @ForAll @IntRange(min = 1, max = 1_000_000) int permits,
      @ForAll @LongRange(min = 1, max = 1_000_000_000_000L) long periodNanos,
      @ForAll @IntRange(min = 1, max = 1_000_000) int burst,
      @ForAll @IntRange(min = 2, max = 64) int n) {
    Limit limit = new Limit(permits, Duration.ofNanos(periodNanos), burst);
    Limit share = limit.share(n);

    assertThat(share.emissionIntervalNanos())
        .isGreaterThanOrEqualTo(limit.emissionIntervalNanos() * n - n);
    assertThat(share.burst()).isBetween(1, Math.max(1, burst / n));
  }
}
