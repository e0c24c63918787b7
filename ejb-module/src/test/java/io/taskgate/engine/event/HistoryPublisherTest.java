package io.taskgate.engine.event;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.time.SettableClock;
import io.taskgate.store.MinuteRecord;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaHistoryStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** This instance's history written to and read back from a real database (H2 in memory). */
class HistoryPublisherTest {
  static final Instant T0 = Instant.parse("2030-01-01T10:00:00Z");
  static final long M0 = TaskHistory.minuteOf(T0);

  final EntityManagerFactory factory = H2TestDatabase.inMemory("history_publisher");
  final JpaHistoryStore store = new JpaHistoryStore(new ResourceLocalTransactor(factory));
  final SettableClock clock = new SettableClock(T0);

  @AfterEach
  void close() {
    factory.close();
  }

  void started(TaskHistory history, int times) {
    for (int i = 0; i < times; i++) {
      history.transition("q", "T", TaskStatus.QUEUED, TaskStatus.IN_PROGRESS, clock.instant());
    }
  }

  List<MinuteRecord> stored() {
    return store.read(M0 - 10_000, M0 + 10_000, Optional.empty());
  }

  @Test
  void eachHeartbeatWritesTheCountsAsTheyStandOfTheMinutesThatChanged() {
    TaskHistory history = new TaskHistory();
    HistoryPublisher publisher = new HistoryPublisher(history, store);
    started(history, 2);
    history.count(new Counted("q", "T", MinuteCounts.Count.PARKED, clock.instant()));
    publisher.publish("a", clock.instant());
    started(history, 1);
    publisher.publish("a", clock.instant().plusSeconds(10));

    assertThat(stored())
        .containsExactly(new MinuteRecord("a", M0, "q", "T", 3, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0));

    clock.advance(Duration.ofMinutes(1));
    started(history, 5);
    // stamped in the minute before, reported after the turn: still written
    history.transition("q", "T", TaskStatus.IN_PROGRESS, TaskStatus.FAILED, T0.plusSeconds(59));
    publisher.publish("a", clock.instant());

    assertThat(stored())
        .containsExactly(
            new MinuteRecord("a", M0, "q", "T", 3, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0),
            new MinuteRecord("a", M0 + 1, "q", "T", 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
  }

  @Test
  void aRestartedInstanceReadsItsCountsBackAndGoesOnCountingFromThem() {
    TaskHistory before = new TaskHistory();
    started(before, 4);
    new HistoryPublisher(before, store).publish("a", clock.instant());
    // another instance's rows are not this one's to read back
    store.save(List.of(new MinuteRecord("b", M0, "q", "T", 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));

    clock.advance(Duration.ofSeconds(20));
    TaskHistory after = new TaskHistory();
    started(after, 1); // counted before the first heartbeat
    new HistoryPublisher(after, store).publish("a", clock.instant());

    assertThat(after.read(clock.instant(), 1).get(0).total(MinuteCounts.Count.STARTED))
        .isEqualTo(5);
    assertThat(store.read(M0, M0, Optional.of("a")))
        .containsExactly(new MinuteRecord("a", M0, "q", "T", 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
  }

  @Test
  void rowsOlderThanADayAreRemovedOnceAnHour() {
    store.save(
        List.of(
            new MinuteRecord(
                "b",
                M0 - HistoryPublisher.KEPT_MINUTES,
                "q",
                "T",
                1,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0),
            new MinuteRecord(
                "b",
                M0 - HistoryPublisher.KEPT_MINUTES + 1,
                "q",
                "T",
                1,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0)));
    HistoryPublisher publisher = new HistoryPublisher(new TaskHistory(), store);
    publisher.publish("a", T0);

    assertThat(stored())
        .extracting(MinuteRecord::epochMinute)
        .containsExactly(M0 - HistoryPublisher.KEPT_MINUTES + 1);

    store.save(
        List.of(
            new MinuteRecord("b", M0 - 2_000, "q", "T", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            new MinuteRecord("b", M0 - 1_000, "q", "T", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    publisher.publish("a", T0.plus(Duration.ofMinutes(59)));
    assertThat(stored()).hasSize(3); // not yet: within the hour

    publisher.publish("a", T0.plus(Duration.ofMinutes(60)));
    assertThat(stored()).extracting(MinuteRecord::epochMinute).containsExactly(M0 - 1_000);
  }
}
