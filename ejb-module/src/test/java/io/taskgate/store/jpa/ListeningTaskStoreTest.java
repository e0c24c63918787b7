package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.TaskStatus;
import io.taskgate.api.TaskTransition;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.engine.LogCapture;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.event.TaskTransitions;
import io.taskgate.store.ListeningTaskStore;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskWrite;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link ListeningTaskStore} on a real H2 store, telling {@link TaskTransitions} what it wrote. */
class ListeningTaskStoreTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  EntityManagerFactory factory;
  EngineEvents events = new EngineEvents();
  TaskTransitions transitions = new TaskTransitions(events);
  List<TaskTransition> seen = new ArrayList<>();
  ListeningTaskStore store;

  @BeforeEach
  void open() throws Exception {
    factory = H2TestDatabase.inMemory("listening");
    store =
        new ListeningTaskStore(
            new JpaTaskStore(new ResourceLocalTransactor(factory), AuditLevel.FULL), transitions);
  }

  @AfterEach
  void close() throws Exception {
    factory.close();
  }

  static StoredTask queued() {
    return StoredTask.queued(
        UUID.randomUUID(), "com.example.Mail", "{}", "default", null, T0, null, T0);
  }

  @Test
  void nothingIsBuiltWhileNobodyListens() {
    assertThat(transitions.listening()).isFalse();
    store.insert(queued()); // no listener: nothing to see, nothing fails
    Runnable unsubscribe = events.subscribe(TaskTransition.class, seen::add);
    assertThat(transitions.listening()).isTrue();
    unsubscribe.run();
    assertThat(transitions.listening()).isFalse();
    assertThat(seen).isEmpty();
  }

  @Test
  void insertsAndStatusChangesAreTransitionsAndOtherWritesAreNot() {
    events.subscribe(TaskTransition.class, seen::add);
    StoredTask task = queued();
    store.insert(task);
    StoredTask stored = store.find(task.id()).orElseThrow();
    StoredTask moved =
        store.update(stored, stored.withScheduledAt(T0.plusSeconds(5)), T0).orElseThrow();
    List<Optional<StoredTask>> results =
        store.writeAll(
            List.of(
                new TaskWrite.Update(
                    moved,
                    moved.withStatus(TaskStatus.IN_PROGRESS).withAttempt(1),
                    T0.plusSeconds(6)),
                new TaskWrite.Update(stored, stored.withStatus(TaskStatus.CANCELLED), T0)));
    assertThat(results.get(1)).isEmpty(); // a lost race is no transition

    assertThat(seen)
        .extracting(
            TaskTransition::taskId, TaskTransition::from, TaskTransition::to, TaskTransition::at)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(task.id(), null, TaskStatus.QUEUED, T0),
            org.assertj.core.groups.Tuple.tuple(
                task.id(), TaskStatus.QUEUED, TaskStatus.IN_PROGRESS, T0.plusSeconds(6)));
    assertThat(seen.get(1).attempt()).isEqualTo(1);
    assertThat(seen.get(0).elapsed()).isNull();
    // claimed 1 s after it was due (T0 + 5 s)
    assertThat(seen.get(1).elapsed()).isEqualTo(java.time.Duration.ofSeconds(1));
    assertThat(seen.get(1).taskType()).isEqualTo("com.example.Mail");
  }

  @Test
  void aListenerThatThrowsDoesNotFailTheWrite() {
    events.subscribe(
        TaskTransition.class,
        t -> {
          throw new IllegalStateException("boom");
        });
    events.subscribe(TaskTransition.class, seen::add);
    StoredTask task = queued();
    try (LogCapture log = new LogCapture(EngineEvents.class, Level.WARNING)) {
      store.insert(task);
      assertThat(log.messages(Level.WARNING))
          .singleElement()
          .asString()
          .startsWith("A subscriber of TaskTransition[")
          .endsWith("threw; ignored");
    }
    assertThat(store.find(task.id())).isPresent();
    assertThat(seen).hasSize(1);
  }
}
