package io.taskgate.engine.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitDeferred;
import io.taskgate.api.RateLimitFailOpen;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.TaskTransition;
import io.taskgate.engine.LogCapture;
import io.taskgate.engine.admin.dto.MonitorEvent;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.event.TaskTransitions;
import io.taskgate.store.StoredTask;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

class MonitorFeedTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  final EngineEvents events = new EngineEvents();
  final TaskTransitions transitions = new TaskTransitions(events);
  final MonitorFeed feed = new MonitorFeed(events, InstantSource.fixed(T0));

  static StoredTask queued() {
    return StoredTask.queued(
        UUID.randomUUID(), "com.example.Mail", "{}", "default", null, T0, null, T0);
  }

  @Test
  void transitionsAreProducedOnlyWhileSomeoneSubscribes() {
    assertThat(transitions.listening()).isFalse();
    List<MonitorEvent> seen = new ArrayList<>();
    Runnable first = feed.subscribe(seen::add);
    Runnable second = feed.subscribe(e -> {});
    assertThat(transitions.listening()).isTrue();
    assertThat(feed.subscribers()).isEqualTo(2);

    StoredTask task = queued();
    transitions.written(null, task, T0);
    transitions.written(task, task.withScheduledAt(T0.plusSeconds(1)), T0); // not a status change
    first.run();
    assertThat(transitions.listening()).isTrue();
    second.run();
    assertThat(transitions.listening()).isFalse();
    transitions.written(task, task.withStatus(TaskStatus.CANCELLED), T0);

    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).name()).isEqualTo(MonitorEvent.TRANSITION);
    assertThat(seen.get(0).data())
        .isInstanceOfSatisfying(
            TaskTransition.class,
            t -> {
              assertThat(t.taskId()).isEqualTo(task.id());
              assertThat(t.from()).isNull();
              assertThat(t.to()).isEqualTo(TaskStatus.QUEUED);
            });
  }

  @Test
  void gateEventsReachSubscribersNamedAndTimedAndNobodyOtherwise() {
    RateLimitDeferred deferred =
        new RateLimitDeferred(
            UUID.randomUUID(), "Mail", "k", T0.plusSeconds(5), 1, false, T0, Duration.ofMinutes(1));
    events.publish(deferred); // no subscriber: dropped at once

    List<MonitorEvent> seen = new ArrayList<>();
    feed.subscribe(seen::add);
    feed.subscribe(
        e -> {
          throw new IllegalStateException("a broken subscriber");
        });
    try (LogCapture log = new LogCapture(MonitorFeed.class, Level.WARNING)) {
      events.publish(deferred);
      events.publish(new RateLimitFailOpen("Mail", "k2", 3));

      assertThat(log.messages(Level.WARNING))
          .containsExactly(
              "A subscriber of the monitoring stream threw; ignored",
              "A subscriber of the monitoring stream threw; ignored");
    }

    assertThat(seen)
        .extracting(MonitorEvent::name, MonitorEvent::at)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(MonitorEvent.DEFERRED, T0),
            org.assertj.core.groups.Tuple.tuple(MonitorEvent.FAIL_OPEN, T0));
    assertThat(seen.get(0).data()).isSameAs(deferred);
  }
}
