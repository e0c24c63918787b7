package io.taskgate.api;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Random cron expressions from a small grammar: every field form, names, 0 and 7 for Sunday. */
public final class CronGenerators {
  private CronGenerators() {}

  public static Arbitrary<String> expressions() {
    return Combinators.combine(
            field(0, 59),
            Arbitraries.oneOf(field(0, 23), Arbitraries.of("1", "2", "1-3", "0,2", "2/1")),
            mostlyStar(field(1, 31), Arbitraries.of("28-31", "29", "30,31", "31")),
            mostlyStar(field(1, 12), Arbitraries.of("JAN,JUL", "feb-apr", "Mar-Nov/2", "DEC")),
            mostlyStar(field(0, 7), Arbitraries.of("MON-FRI", "SUN", "sat,sun", "5-7", "7", "0")))
        .as((m, h, dom, mon, dow) -> m + " " + h + " " + dom + " " + mon + " " + dow);
  }

  /** A lone star three times in five, so that most expressions fire within days. */
  private static Arbitrary<String> mostlyStar(Arbitrary<String> field, Arbitrary<String> special) {
    Arbitrary<String> star = Arbitraries.just("*");
    return Arbitraries.oneOf(star, star, star, field, special);
  }

  private static Arbitrary<String> field(int min, int max) {
    Arbitrary<Integer> value = Arbitraries.integers().between(min, max);
    Arbitrary<Integer> step = Arbitraries.integers().between(1, Math.min(30, max - min + 1));
    return Arbitraries.oneOf(
        Arbitraries.just("*"),
        value.map(String::valueOf),
        Combinators.combine(value, value).as((a, b) -> Math.min(a, b) + "-" + Math.max(a, b)),
        Combinators.combine(value, value).as((a, b) -> a + "," + b),
        step.map(n -> "*/" + n),
        Combinators.combine(value, value, step)
            .as((a, b, n) -> Math.min(a, b) + "-" + Math.max(a, b) + "/" + n),
        Combinators.combine(value, step).as((a, n) -> a + "/" + n));
  }
}
