package io.taskgate.core.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The GCRA's guarantees, stated once over {@link Gcra}'s transition in both of its callers'
 * semantics: refuse now (the method limiters: a non-conforming request spends nothing) and reserve
 * (the keyed limiters: a non-conforming unit within the horizon is deferred to its slot and spent).
 * Times are milliseconds on a hand-moved clock, from an arbitrary origin.
 */
class GcraTest {
  static final long MS = 1_000_000L;

  /** A rate: emission interval {@code t} and {@code burst}, tolerance {@code (burst − 1) · t}. */
  record Rate(long t, int burst) {
    long tolerance() {
      return (burst - 1) * t;
    }
  }

  /** A request for {@code n} units arriving {@code gap} after the previous one. */
  record Arrival(long gap, int n) {}

  /** Units granted, executed at {@code at}. */
  record Grant(long at, int n) {}

  @Provide
  Arbitrary<Rate> rates() {
    return Combinators.combine(
            Arbitraries.longs().between(1, 2_000).map(ms -> ms * MS + ms % 7),
            Arbitraries.integers().between(1, 8))
        .as(Rate::new);
  }

  @Provide
  Arbitrary<List<Arrival>> arrivals() {
    Arbitrary<Long> gap =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just(0L)),
            Tuple.of(6, Arbitraries.longs().between(1, 300).map(ms -> ms * MS)),
            Tuple.of(1, Arbitraries.longs().between(301, 20_000).map(ms -> ms * MS)));
    Arbitrary<Integer> n =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just(1)), Tuple.of(2, Arbitraries.integers().between(2, 8)));
    return Combinators.combine(gap, n).as(Arrival::new).list().ofMinSize(1).ofMaxSize(150);
  }

  @Provide
  Arbitrary<Long> origins() {
    return Arbitraries.longs().between(-1_000_000_000L, 2_000_000_000L).map(ms -> ms * MS);
  }

  /** Refuse now: a request of {@code n ≤ burst} units is granted at {@code now} iff it conforms. */
  static List<Grant> refuseNow(Rate rate, long origin, List<Arrival> arrivals) {
    List<Grant> grants = new ArrayList<>();
    long tat = Gcra.NEW_KEY;
    long now = origin;
    for (Arrival a : arrivals) {
      now += a.gap();
      int n = Math.min(a.n(), rate.burst());
      long from = Gcra.from(tat, now);
      if (Gcra.conforms(Gcra.slot(from, n, rate.t(), rate.tolerance()), now)) {
        tat = Gcra.spend(from, n, rate.t());
        grants.add(new Grant(now, n));
      }
    }
    return grants;
  }

  /**
   * Reserve: one unit per arrival, run now or at its slot unless rejected; returns the executions
   * in the order granted.
   */
  static List<Grant> reserve(
      Rate rate,
      long horizon,
      boolean discard,
      boolean startEmpty,
      long origin,
      List<Arrival> arrivals) {
    List<Grant> grants = new ArrayList<>();
    long tat = Gcra.NEW_KEY;
    long now = origin;
    for (Arrival a : arrivals) {
      now += a.gap();
      long from = Gcra.from(tat, now, rate.tolerance(), startEmpty);
      long slot = Gcra.slot(from, 1, rate.t(), rate.tolerance());
      RateLimitDecision d = Gcra.reservation(slot, now, horizon, discard);
      if (d.rejected()) {
        assertThat(d.slotEpochNanos()).as("the slot a rejection names").isEqualTo(slot);
        assertThat(discard || slot - now > horizon).as("rejected for a reason").isTrue();
        continue;
      }
      assertThat(d.outcome() == Outcome.RUN_NOW).isEqualTo(Gcra.conforms(slot, now));
      assertThat(d.outcome() != Outcome.DEFERRED || (!discard && slot - now <= horizon))
          .as("deferred only within the horizon, never when discarding")
          .isTrue();
      tat = Gcra.spend(from, 1, rate.t());
      grants.add(new Grant(d.runsNow() ? now : d.slotEpochNanos(), 1));
    }
    return grants;
  }

  /** The most units executed in any closed window {@code [at, at + w]}. */
  static long mostInAnyWindow(List<Grant> grants, long w) {
    List<Grant> sorted = new ArrayList<>(grants);
    sorted.sort((x, y) -> Long.compare(x.at(), y.at()));
    long most = 0;
    for (int i = 0; i < sorted.size(); i++) {
      long sum = 0;
      for (int j = i; j < sorted.size() && sorted.get(j).at() <= sorted.get(i).at() + w; j++) {
        sum += sorted.get(j).n();
      }
      most = Math.max(most, sum);
    }
    return most;
  }

  @Property(tries = 300)
  void refusingNowGrantsAtMostBurstPlusWindowOverIntervalInAnyWindow(
      @ForAll("rates") Rate rate,
      @ForAll("origins") long origin,
      @ForAll("arrivals") List<Arrival> arrivals,
      @ForAll @LongRange(min = 0, max = 30_000) long windowMs) {
    long w = windowMs * MS;
    assertThat(mostInAnyWindow(refuseNow(rate, origin, arrivals), w))
        .isLessThanOrEqualTo(rate.burst() + w / rate.t());
  }

  @Property(tries = 300)
  void reservingExecutesAtMostBurstPlusWindowOverIntervalInAnyWindow(
      @ForAll("rates") Rate rate,
      @ForAll @LongRange(min = 0, max = 10_000) long horizonMs,
      @ForAll boolean discard,
      @ForAll boolean startEmpty,
      @ForAll("origins") long origin,
      @ForAll("arrivals") List<Arrival> arrivals,
      @ForAll @LongRange(min = 0, max = 30_000) long windowMs) {
    long w = windowMs * MS;
    List<Grant> grants = reserve(rate, horizonMs * MS, discard, startEmpty, origin, arrivals);
    assertThat(mostInAnyWindow(grants, w)).isLessThanOrEqualTo(rate.burst() + w / rate.t());
  }

  /**
   * Beyond the burst, the executions of one key are at least {@code T} apart: of any {@code burst +
   * 1} granted in a row the last comes at least {@code T} after the first, and each deferred slot
   * at least {@code T} after the one reserved before it.
   */
  @Property(tries = 300)
  void beyondTheBurstExecutionsAreAtLeastAnIntervalApart(
      @ForAll("rates") Rate rate,
      @ForAll boolean startEmpty,
      @ForAll("origins") long origin,
      @ForAll("arrivals") List<Arrival> arrivals) {
    List<Grant> grants = reserve(rate, Long.MAX_VALUE, false, startEmpty, origin, arrivals);
    for (int i = 0; i + rate.burst() < grants.size(); i++) {
      assertThat(grants.get(i + rate.burst()).at() - grants.get(i).at())
          .as("execution %d and the one %d later", i, rate.burst())
          .isGreaterThanOrEqualTo(rate.t());
    }
    long tat = Gcra.NEW_KEY;
    long now = origin;
    long lastSlot = Long.MIN_VALUE;
    for (Arrival a : arrivals) {
      now += a.gap();
      long from = Gcra.from(tat, now, rate.tolerance(), startEmpty);
      long slot = Gcra.slot(from, 1, rate.t(), rate.tolerance());
      if (lastSlot != Long.MIN_VALUE) {
        assertThat(slot - lastSlot).as("consecutive slots").isGreaterThanOrEqualTo(rate.t());
      }
      lastSlot = slot;
      tat = Gcra.spend(from, 1, rate.t());
    }
  }

  /** An idle key ({@code TAT ≤ now}, or never seen) grants exactly its burst at once. */
  @Property(tries = 500)
  void anIdleKeyGrantsExactlyItsBurstAtOnce(
      @ForAll("rates") Rate rate,
      @ForAll("origins") long now,
      @ForAll @LongRange(min = -1, max = 100_000) long idleMs) {
    long tat = idleMs < 0 ? Gcra.NEW_KEY : now - idleMs * MS;
    assertThat(Gcra.available(tat, now, rate.t(), rate.tolerance(), rate.burst()))
        .isEqualTo(rate.burst());
    long from = Gcra.from(tat, now);
    assertThat(Gcra.conforms(Gcra.slot(from, rate.burst(), rate.t(), rate.tolerance()), now))
        .as("the whole burst in one request")
        .isTrue();
    assertThat(Gcra.conforms(Gcra.slot(from, rate.burst() + 1, rate.t(), rate.tolerance()), now))
        .as("one more than the burst")
        .isFalse();
    for (int i = 0; i < rate.burst(); i++) {
      from = Gcra.from(tat, now);
      assertThat(Gcra.conforms(Gcra.slot(from, 1, rate.t(), rate.tolerance()), now))
          .as("unit %d of the burst", i)
          .isTrue();
      tat = Gcra.spend(from, 1, rate.t());
    }
    long slot = Gcra.slot(Gcra.from(tat, now), 1, rate.t(), rate.tolerance());
    assertThat(Gcra.conforms(slot, now)).as("the unit after the burst").isFalse();
    assertThat(Gcra.retryAfter(slot, now)).isEqualTo(rate.t());
  }

  /**
   * Retry-after is exact: a refused request of {@code n ≤ burst} units conforms when asked again
   * {@code retryAfter} later, and not a nanosecond earlier.
   */
  @Property(tries = 1_000)
  void retryAfterIsExact(
      @ForAll("rates") Rate rate,
      @ForAll("origins") long now,
      @ForAll @LongRange(min = -20_000, max = 20_000) long tatMs,
      @ForAll @IntRange(min = 1, max = 8) int wanted) {
    int n = Math.min(wanted, rate.burst());
    long tat = now + tatMs * MS;
    long slot = Gcra.slot(Gcra.from(tat, now), n, rate.t(), rate.tolerance());
    long retry = Gcra.retryAfter(slot, now);
    assertThat(retry).isNotNegative();
    assertThat(retry == 0).isEqualTo(Gcra.conforms(slot, now));
    long later = now + retry;
    assertThat(
            Gcra.conforms(Gcra.slot(Gcra.from(tat, later), n, rate.t(), rate.tolerance()), later))
        .as("asked again after %d ns", retry)
        .isTrue();
    if (retry > 0) {
      long early = later - 1;
      assertThat(
              Gcra.conforms(Gcra.slot(Gcra.from(tat, early), n, rate.t(), rate.tolerance()), early))
          .as("a nanosecond earlier")
          .isFalse();
    }
  }

  /** The units available are exactly the most one request may take now. */
  @Property(tries = 1_000)
  void availableIsTheLargestRequestThatConforms(
      @ForAll("rates") Rate rate,
      @ForAll("origins") long now,
      @ForAll @LongRange(min = -20_000, max = 20_000) long tatMs) {
    long tat = now + tatMs * MS;
    int available = Gcra.available(tat, now, rate.t(), rate.tolerance(), rate.burst());
    long from = Gcra.from(tat, now);
    assertThat(available).isBetween(0, rate.burst());
    if (available > 0) {
      assertThat(Gcra.conforms(Gcra.slot(from, available, rate.t(), rate.tolerance()), now))
          .isTrue();
    }
    assertThat(Gcra.conforms(Gcra.slot(from, available + 1, rate.t(), rate.tolerance()), now))
        .isFalse();
  }

  /**
   * A push-back moves a key's TAT so that nothing new conforms before the target, never back, and
   * by at least the pending slots' shift; that shift is never negative.
   */
  @Property(tries = 500)
  void aPushBackNeverMovesTheKeyBackAndHoldsItUntilTheTarget(
      @ForAll("rates") Rate rate,
      @ForAll("origins") long now,
      @ForAll @LongRange(min = -20_000, max = 20_000) long tatMs,
      @ForAll @LongRange(min = -20_000, max = 20_000) long targetMs,
      @ForAll @LongRange(min = -20_000, max = 20_000) long earliestMs,
      @ForAll boolean nonePending) {
    long tat = now + tatMs * MS;
    long target = now + targetMs * MS;
    long earliest = nonePending ? Long.MAX_VALUE : now + earliestMs * MS;
    long delta = Gcra.pushBackDelta(earliest, target);
    assertThat(delta).isNotNegative();
    if (!nonePending) {
      assertThat(earliest + delta).isGreaterThanOrEqualTo(target);
    }
    long pushed = Gcra.pushBack(tat, now, delta, target, rate.tolerance());
    assertThat(pushed).isGreaterThanOrEqualTo(Gcra.from(tat, now) + delta);
    assertThat(Gcra.slot(Gcra.from(pushed, now), 1, rate.t(), rate.tolerance()))
        .isGreaterThanOrEqualTo(target);
  }

  /**
   * Worked examples, in milliseconds: {@code units@now} asks for units at now; the answer is {@code
   * ok} (granted, spent) or {@code waitN} (refused, retry after N ms); a key that starts empty
   * counts from now + τ.
   */
  @ParameterizedTest(name = "T {0} ms, burst {1}, start empty {2}: {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          100 | 3 | false | 1@0 ok; 1@0 ok; 1@0 ok; 1@0 wait100; 1@99 wait1; 1@100 ok; 1@100 wait100
          100 | 3 | false | 3@0 ok; 1@0 wait100; 2@150 wait50; 2@200 ok
          100 | 3 | false | 4@0 wait100
          100 | 1 | false | 1@0 ok; 1@50 wait50; 1@100 ok; 1@1000 ok; 1@1000 wait100
          100 | 5 | true  | 1@0 ok; 1@0 wait100; 1@100 ok; 1@150 wait50
          250 | 2 | true  | 2@0 wait250; 1@0 ok; 1@250 ok; 1@250 wait250
          """)
  void examples(long tMs, int burst, boolean startEmpty, String script) {
    long t = tMs * MS;
    long tolerance = (burst - 1) * t;
    long tat = Gcra.NEW_KEY;
    for (String step : script.split(";")) {
      String[] parts = step.trim().split(" ");
      String[] request = parts[0].split("@");
      int n = Integer.parseInt(request[0]);
      long now = Long.parseLong(request[1]) * MS;
      long from = Gcra.from(tat, now, tolerance, startEmpty);
      long slot = Gcra.slot(from, n, t, tolerance);
      String answer = Gcra.conforms(slot, now) ? "ok" : "wait" + Gcra.retryAfter(slot, now) / MS;
      assertThat(answer).as(step).isEqualTo(parts[1]);
      if (Gcra.conforms(slot, now)) {
        tat = Gcra.spend(from, n, t);
      }
    }
  }

  /**
   * The keyed answer for one unit at now 0, horizon 500 ms: the slot conforming, within the
   * horizon, just beyond it, and under a discarding overflow.
   */
  @ParameterizedTest(name = "slot {0} ms, discard {1}: {2}")
  @CsvSource({
    "-10, false, RUN_NOW",
    "0, false, RUN_NOW",
    "0, true, RUN_NOW",
    "1, false, DEFERRED",
    "500, false, DEFERRED",
    "501, false, REJECTED_BEYOND_HORIZON",
    "1, true, REJECTED_DISCARD",
    "501, true, REJECTED_DISCARD",
  })
  void theKeyedAnswerForASlot(long slotMs, boolean discard, Outcome expected) {
    RateLimitDecision d = Gcra.reservation(slotMs * MS, 0, 500 * MS, discard);
    assertThat(d.outcome()).isEqualTo(expected);
    assertThat(d.retryAfterNanos()).isEqualTo(Gcra.retryAfter(slotMs * MS, 0));
  }
}
