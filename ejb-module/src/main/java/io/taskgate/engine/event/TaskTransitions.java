package io.taskgate.engine.event;

import io.taskgate.api.TaskStatus;
import io.taskgate.api.TaskTransition;
import io.taskgate.engine.event.MinuteCounts.Count;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskWriteListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;

/**
 * Turns the store's writes into events on the {@link EngineEvents} channel: a {@link Counted} for
 * each start, completion and failure, and a {@link TaskTransition} for each change of status (a new
 * payload or a retry's new due time is not one). A transition is built only while someone
 * subscribes to it, so that an unwatched engine pays one check per write.
 */
@ApplicationScoped
public class TaskTransitions implements TaskWriteListener {
  private final EngineEvents events;

  /** For the CDI proxy. */
  protected TaskTransitions() {
    this(null);
  }

  @Inject
  public TaskTransitions(EngineEvents events) {
    this.events = events;
  }

  /** Whether anyone is told: in the container, the history always is. */
  @Override
  public boolean listening() {
    return events.wants(Counted.class) || events.wants(TaskTransition.class);
  }

  /** See {@link TaskTransition#elapsed()}. */
  static Duration elapsed(StoredTask before, StoredTask after, Instant at) {
    if (before == null) {
      return null;
    }
    if (before.status() == TaskStatus.IN_PROGRESS) {
      return Duration.between(before.updatedAt(), at);
    }
    if (before.status() == TaskStatus.QUEUED && after.status() == TaskStatus.IN_PROGRESS) {
      Duration waited = Duration.between(before.scheduledAt(), at);
      return waited.isNegative() ? Duration.ZERO : waited;
    }
    return null;
  }

  @Override
  public void written(StoredTask before, StoredTask after, Instant at) {
    TaskStatus from = before == null ? null : before.status();
    if (from == after.status()) {
      return;
    }
    Count count = TaskHistory.countOf(from, after.status());
    if (count != null) {
      events.publish(new Counted(after.queue(), after.type(), count, at));
    }
    if (events.wants(TaskTransition.class)) {
      events.publish(
          new TaskTransition(
              after.id(),
              after.type(),
              after.queue(),
              from,
              after.status(),
              at,
              after.attempt(),
              after.lastError(),
              elapsed(before, after, at)));
    }
  }
}
