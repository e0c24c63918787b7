package io.taskgate.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.time.ManualTimeline;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The timeline on time moved by hand ({@link ManualTimeline}): nothing sleeps, and each hand-over
 * is seen at the very nanosecond it happens.
 */
class TaskSchedulerTimelineTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  final ManualTimeline timeline = new ManualTimeline(T0);
  final List<String> handed = new ArrayList<>(); // "lane id @ms since T0"

  /** Queues that note what the scheduler hands them, and when. */
  final TaskQueues queues =
      new TaskQueues() {
        @Override
        public void enqueue(String queue, UUID taskId, Duration wait) {
          handed.add("queue " + taskId + " @" + millis());
        }

        @Override
        public void enqueueDue(String queue, UUID taskId) {
          handed.add("due " + taskId + " @" + millis());
        }

        @Override
        public void enqueueStart(String queue, UUID taskId) {
          handed.add("start " + taskId + " @" + millis());
        }
      };

  final TaskScheduler scheduler =
      SchedulerWiring.scheduler(queues, timeline.timers(), timeline.clock(), timeline.ticker());

  long millis() {
    return Duration.between(T0, timeline.clock().instant()).toMillis();
  }

  @Test
  void aParkedTaskIsHandedToItsDueLaneAtItsSlotAndNotANanosecondBefore() {
    UUID parked = UUID.randomUUID();
    scheduler.redeemAt("default", parked, T0.plusMillis(300));
    assertThat(timeline.scheduled()).as("one alarm").isEqualTo(1);

    timeline.advance(Duration.ofMillis(300).minusNanos(1));
    assertThat(handed).isEmpty();
    assertThat(scheduler.hasTimer(parked)).isTrue();

    timeline.advance(Duration.ofNanos(1));
    assertThat(handed).containsExactly("due " + parked + " @300");
    assertThat(scheduler.hasTimer(parked)).isFalse();
    assertThat(scheduler.holds(parked)).as("held until the engine releases it").isTrue();
  }

  @Test
  void tasksDueTogetherGoOutSlotsFirstThenTheQueuesOwn() {
    UUID plain = UUID.randomUUID();
    UUID slot = UUID.randomUUID();
    UUID start = UUID.randomUUID();
    scheduler.submit("default", plain, T0.plusMillis(100));
    scheduler.redeemAt("default", slot, T0.plusMillis(100));
    scheduler.startAt("default", start, T0.plusMillis(100));

    timeline.advance(Duration.ofMillis(100));

    assertThat(handed).hasSize(3);
    assertThat(handed.subList(0, 2))
        .containsExactlyInAnyOrder("due " + slot + " @100", "start " + start + " @100");
    assertThat(handed.get(2)).isEqualTo("queue " + plain + " @100");
  }

  @Test
  void slotsAMillisecondApartAreHandedOverByOneTickNotAnAlarmEach() {
    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      UUID id = UUID.randomUUID();
      ids.add(id);
      scheduler.redeemAt("default", id, T0.plusMillis(10 + i));
    }
    assertThat(timeline.scheduled()).as("within 50 ms: a tick, not an alarm").isEqualTo(1);

    timeline.advance(Duration.ofMillis(60));

    assertThat(handed).hasSize(40);
    for (int i = 0; i < 40; i++) {
      assertThat(handed.get(i)).isEqualTo("due " + ids.get(i) + " @" + (10 + i));
    }
    assertThat(timeline.scheduled()).isEqualTo(1);
    assertThat(timeline.pending()).as("the tick stopped once nothing was near").isZero();
  }

  @Test
  void anEarlierArrivalMovesTheAlarmAndACancelledTimerNeverGoesOff() {
    UUID late = UUID.randomUUID();
    UUID early = UUID.randomUUID();
    scheduler.submit("default", late, T0.plusSeconds(3));
    scheduler.submit("default", early, T0.plusSeconds(1));

    timeline.advance(Duration.ofSeconds(1));
    assertThat(handed).containsExactly("queue " + early + " @1000");

    assertThat(scheduler.cancelTimer(late)).isTrue();
    timeline.advance(Duration.ofSeconds(5));
    assertThat(handed).containsExactly("queue " + early + " @1000");
    assertThat(scheduler.timersPending()).isZero();
  }
}
