package io.taskgate.core.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The deferral event timeline: first of a window at once, one summary per window, in ms. */
class DeferralAggregatorTest {
  static final long T0 = EpochNanos.of(Instant.parse("2026-01-01T00:00:00Z"));
  static final long MS = 1_000_000L;
  static final long WINDOW_MS = 60_000;

  final DeferralAggregator aggregator = new DeferralAggregator(WINDOW_MS * MS);

  static long at(long millis) {
    return T0 + millis * MS;
  }

  static UUID task(int n) {
    return new UUID(0, n);
  }

  /**
   * One step of a timeline: at {@code millis}, either task {@code n} of {@code key} is deferred
   * (slot = now + 4 s), or ({@code key} null) the aggregator is drained; then what is reported, as
   * "key:task:count" for a first, "key:task:count:summary@windowStartMillis" for a summary.
   */
  record Step(long millis, String key, int n, List<String> reported) {}

  static Step defer(long millis, String key, int n, String... reported) {
    return new Step(millis, key, n, List.of(reported));
  }

  static Step drain(long millis, String... reported) {
    return new Step(millis, null, 0, List.of(reported));
  }

  static Stream<Arguments> timelines() {
    return Stream.of(
        Arguments.of(
            "first at once, the rest of the window in one summary at its end",
            List.of(
                defer(0, "a", 1, "a:1:1"),
                defer(1_000, "a", 2),
                defer(2_000, "a", 3),
                drain(59_999),
                drain(60_000, "a:3:2:summary@0"),
                drain(61_000))),
        Arguments.of(
            "each key has its own window",
            List.of(
                defer(0, "a", 1, "a:1:1"),
                defer(10_000, "b", 2, "b:2:1"),
                defer(20_000, "a", 3),
                defer(30_000, "b", 4),
                defer(40_000, "b", 5),
                drain(60_000, "a:3:1:summary@0"),
                drain(69_999),
                drain(70_000, "b:5:2:summary@10000"))),
        Arguments.of(
            "a lone deferral ends its window without a summary",
            List.of(defer(0, "a", 1, "a:1:1"), drain(60_000), defer(60_001, "a", 2, "a:2:1"))),
        Arguments.of(
            "sustained throttling: at most two events per window",
            List.of(
                defer(0, "a", 1, "a:1:1"),
                defer(30_000, "a", 2),
                drain(60_000, "a:2:1:summary@0"),
                defer(60_000, "a", 3, "a:3:1"),
                defer(90_000, "a", 4),
                defer(100_000, "a", 5),
                drain(120_000, "a:5:2:summary@60000"))),
        Arguments.of(
            "a deferral after an ended window not yet drained reports its summary first",
            List.of(
                defer(0, "a", 1, "a:1:1"),
                defer(5_000, "a", 2),
                defer(70_000, "a", 3, "a:2:1:summary@0", "a:3:1"),
                defer(71_000, "a", 4),
                drain(130_000, "a:4:1:summary@70000"))),
        Arguments.of(
            "a clock that goes back keeps the window open",
            List.of(
                defer(10_000, "a", 1, "a:1:1"),
                defer(5_000, "a", 2),
                drain(69_999),
                drain(70_000, "a:2:1:summary@10000"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("timelines")
  void timeline(String name, List<Step> steps) {
    for (Step step : steps) {
      List<DeferralReport> reports =
          step.key() == null
              ? aggregator.drain(at(step.millis()))
              : aggregator.record(
                  task(step.n()), "T", step.key(), at(step.millis() + 4_000), at(step.millis()));
      assertThat(reports.stream().map(DeferralAggregatorTest::describe).toList())
          .as("at %d ms", step.millis())
          .containsExactlyElementsOf(step.reported());
    }
    assertThat(aggregator.drain(at(10_000_000))).isEmpty();
    assertThat(aggregator.openWindows()).isZero();
  }

  static String describe(DeferralReport r) {
    String text = r.key() + ":" + r.taskId().getLeastSignificantBits() + ":" + r.deferredCount();
    return r.summary() ? text + ":summary@" + (r.windowStartEpochNanos() - T0) / MS : text;
  }

  @Test
  void aReportCarriesTheTaskItsSlotTheScopeAndTheWindow() {
    List<DeferralReport> first =
        aggregator.record(task(7), "com.acme.Sync", "tenant-1", at(4_000), at(0));
    aggregator.record(task(8), "com.acme.Sync", "tenant-1", at(8_000), at(1_000));

    assertThat(first)
        .containsExactly(
            new DeferralReport(
                task(7), "com.acme.Sync", "tenant-1", at(4_000), 1, false, at(0), WINDOW_MS * MS));
    assertThat(aggregator.drain(at(WINDOW_MS)))
        .containsExactly(
            new DeferralReport(
                task(8), "com.acme.Sync", "tenant-1", at(8_000), 1, true, at(0), WINDOW_MS * MS));
  }

  @Test
  void theSameKeyInTwoScopesHasTwoWindows() {
    assertThat(aggregator.record(task(1), "A", "k", at(4_000), at(0))).hasSize(1);
    assertThat(aggregator.record(task(2), "B", "k", at(4_000), at(0))).hasSize(1);
    assertThat(aggregator.openWindows()).isEqualTo(2);
  }

  @Test
  void theMessageIsMachineParseable() {
    DeferralReport report =
        new DeferralReport(
            UUID.fromString("3f1c2a7e-0000-4000-8000-000000000001"),
            "com.acme.SyncTenantData",
            "tenant-7",
            EpochNanos.of(Instant.parse("2026-11-22T10:00:04Z")),
            12,
            true,
            0,
            1);

    assertThat(report.message())
        .isEqualTo(
            "Rate limit deferred task 3f1c2a7e-0000-4000-8000-000000000001: key=tenant-7"
                + " slotUtc=2026-11-22T10:00:04Z policy=com.acme.SyncTenantData deferredCount=12");
  }

  @Test
  void theWindowMustBePositive() {
    assertThatThrownBy(() -> new DeferralAggregator(0))
        .hasMessage("windowNanos must be positive, was 0");
  }

  /**
   * Over any sequence of deferrals and drains: the counts add up to the deferrals, every key gets
   * at most one first and one summary per window, and after a final drain nothing is held.
   */
  @Property(tries = 300)
  void countsAddUpAndEachWindowReportsAtMostTwice(
      @ForAll @Size(min = 1, max = 200) List<@LongRange(min = 0, max = 20_000) Long> gapsMillis,
      @ForAll @Size(min = 1, max = 200) List<@IntRange(min = 0, max = 4) Integer> keys,
      @ForAll @Size(min = 1, max = 200) List<@IntRange(min = 0, max = 5) Integer> drains) {
    List<DeferralReport> all = new ArrayList<>();
    long now = 0;
    for (int i = 0; i < gapsMillis.size(); i++) {
      now += gapsMillis.get(i);
      String key = "k" + keys.get(i % keys.size());
      all.addAll(aggregator.record(task(i), "T", key, at(now + 1), at(now)));
      if (drains.get(i % drains.size()) == 0) {
        all.addAll(aggregator.drain(at(now)));
      }
    }
    all.addAll(aggregator.drain(at(now + WINDOW_MS)));

    assertThat(all.stream().mapToLong(DeferralReport::deferredCount).sum())
        .isEqualTo(gapsMillis.size());
    Map<String, Integer> perWindow = new HashMap<>();
    for (DeferralReport r : all) {
      perWindow.merge(r.key() + "@" + r.windowStartEpochNanos(), 1, Integer::sum);
      if (r.summary()) {
        assertThat(r.deferredCount()).isPositive();
      } else {
        assertThat(r.deferredCount()).isEqualTo(1);
      }
    }
    assertThat(perWindow.values()).allMatch(n -> n <= 2);
    assertThat(all.stream().filter(r -> !r.summary()).count()).isEqualTo(perWindow.size());
    assertThat(aggregator.openWindows()).isZero();
  }
}
