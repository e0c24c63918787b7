package io.taskgate.web.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.admin.dto.Pacing;
import io.taskgate.engine.admin.dto.PolicyView;
import java.time.Duration;
import java.time.Instant;
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

    assertThat(timeline.started())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.x()).isBetween((double) Timeline.LEFT, timeline.nowX());
              assertThat(p.y()).isEqualTo(Timeline.STARTED_Y);
            });
    assertThat(timeline.reserved()).hasSize(2);
    assertThat(timeline.parked())
        .extracting(Timeline.Point::x)
        .containsExactlyElementsOf(timeline.reserved().stream().map(Timeline.Point::x).toList());
    double tenSeconds = timeline.parked().get(1).x() - timeline.parked().get(0).x();
    assertThat(timeline.parked().get(0).x() - timeline.nowX()).isCloseTo(tenSeconds, within());
    assertThat(timeline.nextSlotX() - timeline.parked().get(1).x()).isCloseTo(tenSeconds, within());
    assertThat(timeline.nextSlotX()).isLessThanOrEqualTo(Timeline.WIDTH - Timeline.RIGHT);
    assertThat(timeline.parked().get(1).title()).isEqualTo("parked until +20.0 s");
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1.0);
  }

  @Test
  void aKeyWithBudgetHasNoNextSlotLine() {
    Timeline timeline = Timeline.of(pacing(null, List.of(), List.of()));

    assertThat(timeline.nextSlotX()).isNegative();
    assertThat(timeline.started()).isEmpty();
    assertThat(timeline.ticks()).hasSize(7);
    assertThat(timeline.ticks().get(0).x()).isEqualTo(Timeline.LEFT);
  }

  @Test
  void marksOlderThanTwoMinutesAreLeftOut() {
    Timeline timeline =
        Timeline.of(
            pacing(
                null,
                List.of(),
                List.of(
                    new Pacing.Mark("STARTED", NOW.minusSeconds(600), null, null),
                    new Pacing.Mark(
                        "STARTED",
                        NOW.minusSeconds(30),
                        NOW.minusSeconds(31),
                        Duration.ofMillis(1000)))));

    assertThat(timeline.started())
        .singleElement()
        .extracting(Timeline.Point::title)
        .isEqualTo("started -30.0 s, 1000 ms after its slot");
  }
}
