package io.taskgate.web.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.admin.dto.Pacing;
import io.taskgate.engine.admin.dto.PolicyView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineTest {
  private static final Instant NOW = Instant.parse("2026-11-22T05:00:00Z");
  private static final PolicyView POLICY =
      new PolicyView(
          1,
          Duration.ofSeconds(10),
          1,
          Duration.ofSeconds(10),
          true,
          false,
          Duration.ofHours(1),
          "WAIT_FOR_CAPACITY");

  private static Pacing pacing(Instant nextSlot, List<Instant> parked, List<Pacing.Mark> marks) {
    return new Pacing("a.Hot", "k", NOW, POLICY, nextSlot, 0, parked, marks);
  }

  @Test
  void marksArePlacedInTimeOrderBetweenTheEdges() {
    Pacing pacing =
        pacing(
            NOW.plusSeconds(30),
            List.of(NOW.plusSeconds(10), NOW.plusSeconds(20)),
            List.of(
                new Pacing.Mark("STARTED", NOW.minusSeconds(5), null, null),
                new Pacing.Mark("RESERVED", NOW.minusSeconds(5), NOW.plusSeconds(10), null),
                new Pacing.Mark("RESERVED", NOW.minusSeconds(5), NOW.plusSeconds(20), null)));

    Timeline timeline = Timeline.of(pacing);

    assertThat(timeline.window()).isEqualTo(Timeline.Window.ONE_MINUTE);
    assertThat(timeline.started())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.x()).isBetween((double) Timeline.LEFT, timeline.nowX());
              assertThat(m.y()).isEqualTo(Timeline.STARTED_Y);
              assertThat(m.bar()).isFalse();
              assertThat(m.title()).isEqualTo("started 5 s ago");
            });
    assertThat(timeline.parked())
        .extracting(Timeline.Mark::x)
        .containsExactlyElementsOf(timeline.reserved().stream().map(Timeline.Mark::x).toList());
    assertThat(timeline.parked().get(0).x()).isLessThan(timeline.parked().get(1).x());
    assertThat(timeline.parked().get(1).title()).isEqualTo("parked until in 20 s");
    assertThat(timeline.nextSlotX()).isGreaterThan(timeline.parked().get(1).x());
    assertThat(timeline.nextSlotX()).isLessThanOrEqualTo(Timeline.WIDTH - Timeline.RIGHT);
    assertThat(timeline.parkedLater()).isZero();
    assertThat(timeline.lastParked()).isEqualTo(NOW.plusSeconds(20));
  }

  @Test
  void aKeyWithBudgetHasNoNextSlotLine() {
    Timeline timeline = Timeline.of(pacing(null, List.of(), List.of()));

    assertThat(timeline.nextSlotX()).isNegative();
    assertThat(timeline.ticks().get(0).x()).isEqualTo(Timeline.LEFT);
    assertThat(timeline.ticks().get(0).label()).isEqualTo("10 s ago");
    assertThat(timeline.ticks().get(1).label()).isEqualTo("now");
    assertThat(timeline.lastParked()).isNull();
  }

  @Test
  void tenThousandParkedDrawAtMostOneShapeABinAndCountTheRestLater() {
    // one every 1 s from now: 10,000 s of backlog, 2 h 46 min
    List<Instant> parked = new ArrayList<>();
    for (int i = 1; i <= 10_000; i++) {
      parked.add(NOW.plusSeconds(i));
    }
    Pacing pacing = pacing(NOW.plusSeconds(10_001), parked, List.of());

    Timeline timeline = Timeline.of(pacing);

    assertThat(timeline.window()).isEqualTo(Timeline.Window.ONE_HOUR);
    assertThat(timeline.shapes()).isLessThanOrEqualTo(Timeline.BINS);
    int drawn = timeline.parked().stream().mapToInt(Timeline.Mark::count).sum();
    assertThat(drawn).isEqualTo(50 * 60); // the 50 minutes ahead of now
    assertThat(drawn + timeline.parkedLater()).isEqualTo(10_000);
    assertThat(timeline.parked())
        .allSatisfy(
            m -> {
              assertThat(m.x()).isBetween((double) Timeline.LEFT, (double) timeline.right());
              assertThat(m.x() + m.barWidth()).isLessThanOrEqualTo(timeline.right());
              assertThat(m.barHeight()).isBetween(0.0, (double) Timeline.BAR);
            });
    assertThat(timeline.parked().get(10).title()).matches("\\d+ parked until in .* to in .*");
    assertThat(timeline.nextSlotX()).as("beyond the window").isNegative();
    assertThat(timeline.lastParked()).isEqualTo(NOW.plusSeconds(10_000));
  }

  @Test
  void theAxisStaysPutAcrossRefreshesOfTheSameWindow() {
    List<Instant> parked = List.of(NOW.plusSeconds(200), NOW.plusSeconds(400));
    Timeline first = Timeline.of(pacing(null, parked, List.of()));
    Timeline later =
        Timeline.of(
            new Pacing("a.Hot", "k", NOW.plusSeconds(2), POLICY, null, 0, parked, List.of()),
            first.window());

    assertThat(first.window()).isEqualTo(Timeline.Window.TEN_MINUTES);
    assertThat(later.ticks()).isEqualTo(first.ticks());
    assertThat(later.nowX()).isEqualTo(first.nowX());
    // the marks move left as their time comes
    assertThat(later.parked().get(0).x()).isLessThan(first.parked().get(0).x());
  }

  @Test
  void noAxisLabelIsClippedOrOverlapsItsNeighbourInAnyWindow() {
    double charWidth = 6.5; // 11 px system-ui, generously
    for (Timeline.Window window : Timeline.Window.values()) {
      Timeline timeline = Timeline.of(pacing(null, List.of(), List.of()), window);
      double previousEnd = 0;
      for (Timeline.Tick tick : timeline.ticks()) {
        double width = tick.label().length() * charWidth;
        double start =
            switch (tick.anchor()) {
              case "start" -> tick.x();
              case "end" -> tick.x() - width;
              default -> tick.x() - width / 2;
            };
        assertThat(start).as(window + " " + tick).isGreaterThanOrEqualTo(previousEnd + 4);
        assertThat(start + width).as(window + " " + tick).isLessThanOrEqualTo(Timeline.WIDTH);
        previousEnd = start + width;
      }
      assertThat(timeline.ticks().get(timeline.ticks().size() - 1).anchor()).isEqualTo("end");
    }
  }

  @Test
  void windowsAreNamedInTheQueryAndOffsetsReadAsPeopleSayThem() {
    assertThat(Timeline.Window.parse("10m")).contains(Timeline.Window.TEN_MINUTES);
    assertThat(Timeline.Window.parse("2h")).isEmpty();
    assertThat(Timeline.relative(Duration.ofSeconds(200))).isEqualTo("in 3 min 20 s");
    assertThat(Timeline.relative(Duration.ofMinutes(-5))).isEqualTo("5 min ago");
    assertThat(Timeline.relative(Duration.ofMinutes(166))).isEqualTo("in 2 h 46 min");
    assertThat(Timeline.relative(Duration.ofMillis(300))).isEqualTo("now");
  }
}
