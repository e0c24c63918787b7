package io.taskgate.engine.event;

import io.taskgate.api.TaskStatus;
import io.taskgate.api.TaskTransition;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskWriteListener;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns the store's writes into {@link TaskTransition}s (status changes only: a new payload or a
 * retry's new due time is not one), for the CDI observers of the event and for in-process listeners
 * ({@link #subscribe}). Costs one check per write while nobody listens: whether any CDI observer
 * exists is resolved once, when the application starts, and the listener list is read without a
 * lock. Every change of status is also counted in the {@link TaskHistory}. A listener or observer
 * that throws is logged and ignored.
 */
@ApplicationScoped
public class TaskTransitions implements TaskWriteListener {
  private static final Logger LOG = Logger.getLogger(TaskTransitions.class.getName());

  @Inject Event<TaskTransition> events;
  @Inject BeanManager beanManager;
  @Inject TaskHistory history;

  private final List<Consumer<TaskTransition>> listeners = new CopyOnWriteArrayList<>();
  private volatile boolean observed;

  @PostConstruct
  void resolveObservers() {
    TaskTransition sample =
        new TaskTransition(null, "", "", null, null, Instant.EPOCH, 0, null, null);
    observed = !beanManager.resolveObserverMethods(sample).isEmpty();
  }

  /** Adds an in-process listener; returns what removes it. */
  public Runnable subscribe(Consumer<TaskTransition> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** Whether anyone is told: always with a history, which counts every change of status. */
  @Override
  public boolean listening() {
    return history != null || observed || !listeners.isEmpty();
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
    if (before != null && before.status() == after.status()) {
      return;
    }
    if (history != null) {
      history.transition(
          after.queue(), after.type(), before == null ? null : before.status(), after.status(), at);
    }
    if (!observed && listeners.isEmpty()) {
      return;
    }
    TaskTransition transition =
        new TaskTransition(
            after.id(),
            after.type(),
            after.queue(),
            before == null ? null : before.status(),
            after.status(),
            at,
            after.attempt(),
            after.lastError(),
            elapsed(before, after, at));
    for (Consumer<TaskTransition> listener : listeners) {
      try {
        listener.accept(transition);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "A listener of task transitions threw; ignored", e);
      }
    }
    if (observed) {
      try {
        events.fire(transition);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "An observer of " + transition + " threw; ignored", e);
      }
    }
  }
}
