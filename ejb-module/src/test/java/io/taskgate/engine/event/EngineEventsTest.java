package io.taskgate.engine.event;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitFailOpen;
import io.taskgate.api.RateLimitRejected;
import io.taskgate.api.RateLimitRejectedException.Reason;
import io.taskgate.engine.LogCapture;
import io.taskgate.engine.event.MinuteCounts.Count;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** The one channel: by type, in order, cheap to ask, and deaf to a subscriber that throws. */
class EngineEventsTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  final EngineEvents events = new EngineEvents();

  static RateLimitRejected rejected() {
    return new RateLimitRejected(new UUID(0, 5), "Mail", "k", T0, Reason.DISCARDED);
  }

  @Test
  void eachSubscriberGetsTheEventsOfItsTypeInTheOrderTheyCame() {
    List<Object> first = new ArrayList<>();
    List<Object> second = new ArrayList<>();
    List<Object> others = new ArrayList<>();
    events.subscribe(RateLimitRejected.class, first::add);
    events.subscribe(RateLimitRejected.class, second::add);
    events.subscribe(RateLimitFailOpen.class, others::add);

    RateLimitRejected a = rejected();
    RateLimitRejected b = new RateLimitRejected(new UUID(0, 6), "Mail", "k", T0, Reason.DISCARDED);
    events.publish(a);
    events.publish(b);

    assertThat(first).containsExactly(a, b);
    assertThat(second).containsExactly(a, b);
    assertThat(others).isEmpty();
  }

  @Test
  void wantsSaysWhetherAnyoneSubscribesNowAndUnsubscribingStopsTheEvents() {
    assertThat(events.wants(RateLimitRejected.class)).isFalse();
    List<Object> seen = new ArrayList<>();
    Runnable stop = events.subscribe(RateLimitRejected.class, seen::add);
    assertThat(events.wants(RateLimitRejected.class)).isTrue();
    assertThat(events.wants(RateLimitFailOpen.class)).isFalse();

    stop.run();
    events.publish(rejected());

    assertThat(events.wants(RateLimitRejected.class)).isFalse();
    assertThat(seen).isEmpty();
  }

  @Test
  void aSubscriberThatThrowsIsLoggedAndTheOthersStillHearTheEvent() {
    events.subscribe(
        RateLimitRejected.class,
        e -> {
          throw new IllegalStateException("observer broke");
        });
    List<Object> seen = new ArrayList<>();
    events.subscribe(RateLimitRejected.class, seen::add);
    try (LogCapture log = new LogCapture(EngineEvents.class, Level.WARNING)) {
      events.publish(rejected());

      assertThat(seen).hasSize(1);
      assertThat(log.messages(Level.WARNING)).singleElement().asString().contains("threw; ignored");
    }
  }

  @Test
  void theHistoryCountsWhatIsPublishedInTheMinuteOfTheEvent() {
    TaskHistory history = new TaskHistory();
    events.subscribe(Counted.class, history::count);
    events.publish(new Counted("q", "T", Count.PARKED, T0.plusSeconds(59)));
    events.publish(Counted.ofLimiter("calls", Count.CALL_REFUSED, T0.plusSeconds(60)));

    assertThat(history.read(T0, 1))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.series()).isEqualTo(new MinuteCounts.Series("q", "T"));
              assertThat(s.total(Count.PARKED)).isEqualTo(1);
            });
    assertThat(history.read(T0.plusSeconds(60), 1))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.series())
                  .isEqualTo(new MinuteCounts.Series(TaskHistory.LIMITER, "calls"));
              assertThat(s.total(Count.CALL_REFUSED)).isEqualTo(1);
            });
  }
}
