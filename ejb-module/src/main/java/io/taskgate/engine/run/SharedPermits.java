package io.taskgate.engine.run;

import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.ResourceWaiters;
import io.taskgate.engine.throttle.Throttles;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * Which waiters of a freed semaphore a worker may run itself, in one batch sharing one permit
 * ({@link HandOff}): those of the same queue and task type whose throttling lets a batch share a
 * permit ({@link Throttles#sharesPermits}).
 */
@ApplicationScoped
class SharedPermits {
  private final HandlerRegistry registry;
  private final Throttles throttles;
  private final TaskScheduler scheduler;
  private final RunningTasks running;

  /** For the CDI proxy. */
  protected SharedPermits() {
    this(null, null, null, null);
  }

  @Inject
  SharedPermits(
      HandlerRegistry registry,
      Throttles throttles,
      TaskScheduler scheduler,
      RunningTasks running) {
    this.registry = registry;
    this.throttles = throttles;
    this.scheduler = scheduler;
    this.running = running;
  }

  /** Whether {@code next} shares a permit with {@code first} when run in one batch. */
  boolean together(ResourceWaiters.Waiter first, ResourceWaiters.Waiter next) {
    return first.task() != null
        && next.task() != null
        && next.queue().equals(first.queue())
        && next.task().type().equals(first.task().type())
        && shares(next);
  }

  /** Whether a semaphore's waiter shares a permit with the tasks of its batch. */
  boolean shares(ResourceWaiters.Waiter waiter) {
    HandlerInfo handler =
        waiter.task() == null ? null : registry.find(waiter.task().type()).orElse(null);
    return handler != null && throttles.sharesPermits(handler);
  }

  /** Holds a waiter for this worker (its timer dropped); false if the engine holds it already. */
  boolean hold(ResourceWaiters.Waiter waiter) {
    scheduler.cancelTimer(waiter.taskId());
    if (!scheduler.hold(waiter.taskId())) {
      return false;
    }
    running.justStored(waiter.task()); // read once: its claim compares against this copy
    return true;
  }

  /**
   * Whether {@code handOff} takes on waiters of {@code resource}: one whose release hands waiters
   * over (a semaphore's, {@link Throttles#handsOverOnRelease}), while it has room.
   */
  boolean handsOver(HandOff handOff, String resource) {
    return handOff != null && handOff.room() > 0 && throttles.handsOverOnRelease(resource);
  }

  /**
   * {@code resource} was released: its first waiters that can run on {@code handOff}'s worker are
   * taken on there; returns the others taken off the line, to be woken.
   */
  List<ResourceWaiters.Waiter> handOver(ResourceWaiters waiters, String resource, HandOff handOff) {
    List<ResourceWaiters.Waiter> others = new ArrayList<>(0);
    for (ResourceWaiters.Waiter waiter :
        waiters.released(resource, handOff.room(), this::together)) {
      if (handOff.fits(waiter) && shares(waiter) && hold(waiter)) {
        handOff.take(waiter);
      } else {
        others.add(waiter);
      }
    }
    return others;
  }
}
