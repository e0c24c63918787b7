package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConformanceTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * Starts (ms after T0) of one key under {@code permits} per second, {@code burst}; rebirths in
   * ms; the indexes of the starts that must be reported, with no tolerance beyond the policy's.
   */
  @ParameterizedTest(name = "{0}/s burst {1} empty={2}: starts {3}, reborn {4} -> {5}")
  @CsvSource(
      delimiter = ';',
      value = {
        // evenly spaced at the interval: conforms
        "10; 1; false; 0 100 200 300; ; ",
        // one start 1 ms early breaks burst 1
        "10; 1; false; 0 100 199 300; ; 2",
        // a late start followed by an on-time one: bunched, the second is reported
        "10; 1; false; 0 180 200; ; 2",
        // a burst of 3 back to back, then the pace
        "10; 3; false; 0 0 0 100 200; ; ",
        // a fourth back to back is one too many
        "10; 3; false; 0 0 0 0; ; 3",
        // quiet stretch refills the bucket
        "10; 3; false; 0 0 0 1000 1000 1000; ; ",
        // the violating start still spends budget: the next, on the grid, is too early as well
        "10; 1; false; 0 50 100; ; 1 2",
        // starting empty: the first start is free, the second one interval later
        "2; 5; true; 0 500 1000; ; ",
        "2; 5; true; 0 93; ; 1",
        // a restart makes the bucket anew: full again right after it (2 x burst across it)
        "10; 2; false; 0 0 10 10; 5; ",
        "10; 2; false; 0 0 10 10 10; 5; 4",
        // reborn empty: the first start after it is free, the next one interval later
        "4; 2; true; 0 10 20; 5; 2",
        "4; 2; true; 0 10 260; 5; ",
        // starts before a rebirth still count before it
        "10; 1; false; 0 50 500 520; 400; 1 3",
      })
  void replaysEveryStartThroughTheGcra(
      int permits, int burst, boolean empty, String starts, String reborn, String expected) {
    Conformance.Policy policy = Conformance.Policy.of(permits, Duration.ofSeconds(1), burst);
    if (empty) {
      policy = policy.startingEmpty();
    }
    Conformance.Run run = Conformance.run(Duration.ZERO);
    Conformance.Key key = run.key("k", policy);
    int i = 0;
    for (long ms : millis(starts)) {
      key.started(new Conformance.Start(T0.plusMillis(ms), "t" + i++, "a"));
    }
    for (long ms : millis(reborn)) {
      key.rebornAt(T0.plusMillis(ms));
    }
    List<Integer> reported = run.violations().stream().map(Conformance.Violation::index).toList();
    assertThat(reported)
        .containsExactlyElementsOf(millis(expected).stream().map(Long::intValue).toList());
  }

  /**
   * Starts (ms after T0, each {@code ms:cost}) of one key under 10 per second with {@code burst}: a
   * start of n units needs n of them, and spends them all.
   */
  @ParameterizedTest(name = "burst {0} empty={1}: starts {2} -> {3}")
  @CsvSource(
      delimiter = ';',
      value = {
        // a whole burst at once in one start, then the pace
        "5; false; 0:5 500:1 600:1; ",
        // cost 5 leaves nothing: the next unit comes one interval later, not before
        "5; false; 0:5 99:1; 1",
        "5; false; 0:5 100:1; ",
        // cost 3 after cost 3 on burst 5: the second needs 100 ms more
        "5; false; 0:3 0:3; 1",
        "5; false; 0:3 100:3; ",
        // above the burst it never conforms, even on a full bucket
        "3; false; 0:4; 0",
        // starting empty: cost 2 waits one interval, cost 1 is free
        "5; true; 0:2; 0",
        "5; true; 0:1 100:2; 1",
        "5; true; 0:1 200:2; ",
      })
  void aStartOfSeveralUnitsNeedsThemAll(int burst, boolean empty, String starts, String expected) {
    Conformance.Policy policy = Conformance.Policy.of(10, Duration.ofSeconds(1), burst);
    if (empty) {
      policy = policy.startingEmpty();
    }
    Conformance.Run run = Conformance.run(Duration.ZERO);
    Conformance.Key key = run.key("k", policy);
    int i = 0;
    for (String start : starts.trim().split("\\s+")) {
      String[] parts = start.split(":");
      key.started(
          new Conformance.Start(
              T0.plusMillis(Long.parseLong(parts[0])), "t" + i++, "a", Integer.parseInt(parts[1])));
    }
    List<Integer> reported = run.violations().stream().map(Conformance.Violation::index).toList();
    assertThat(reported)
        .containsExactlyElementsOf(millis(expected).stream().map(Long::intValue).toList());
  }

  @ParameterizedTest(name = "tolerance {0} ms: start 2 at {1} ms -> reported {2}")
  @CsvSource({"0, 190, true", "10, 190, false", "10, 189, true", "25, 176, false"})
  void aToleranceAllowsStartsThatMuchEarlier(long toleranceMs, long second, boolean reported) {
    Conformance.Run run = Conformance.run(Duration.ofMillis(toleranceMs));
    Conformance.Key key = run.key("k", Conformance.Policy.of(10, Duration.ofSeconds(1), 1));
    key.started(new Conformance.Start(T0, "a", "x"))
        .started(new Conformance.Start(T0.plusMillis(100), "b", "x"))
        .started(new Conformance.Start(T0.plusMillis(second), "c", "y"));
    assertThat(run.violations()).hasSize(reported ? 1 : 0);
  }

  @org.junit.jupiter.api.Test
  void startsOfEveryInstanceAreMergedAndAFailureNamesTheStart() {
    Conformance.Run run = Conformance.run(Duration.ZERO);
    Conformance.Policy policy = Conformance.Policy.of(15, Duration.ofMinutes(1), 1);
    run.key("tenant", policy)
        .started(new Conformance.Start(T0, "t1", "a"))
        .started(new Conformance.Start(T0.plusSeconds(4), "t2", "b"))
        .started(new Conformance.Start(T0.plusMillis(5050), "t3", "b"));
    run.key("other", policy).started(new Conformance.Start(T0, "t4", "a"));
    assertThatThrownBy(run::assertConforms)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("1 of 4 starts")
        .hasMessageContaining("tenant: start 2 (t3 on b");
    assertThatThrownBy(() -> run.key("tenant", Conformance.Policy.of(1, Duration.ofSeconds(1), 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tenant");
  }

  private static List<Long> millis(String list) {
    if (list == null || list.isBlank()) {
      return List.of();
    }
    return Arrays.stream(list.trim().split("\\s+")).map(Long::parseLong).toList();
  }
}
