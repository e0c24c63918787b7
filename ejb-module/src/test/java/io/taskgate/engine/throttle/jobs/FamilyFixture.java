package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.TaskgateExtension;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.time.SettableClock;
import io.taskgate.store.MemoryThrottlerStore;
import io.taskgate.store.StoredTask;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * The job throttlers wired by hand with their real parts (local state, the manager) over an
 * in-memory definition store, and a clock the test moves: no container.
 */
public final class FamilyFixture {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  /** A task with an order, a batch and a tenant to throttle on. */
  public record Ship(long orderId, String batchId, String tenant) implements Task {
    public static Ship order(long orderId) {
      return new Ship(orderId, "batch-" + orderId, "acme");
    }
  }

  /** The base of the test handlers: does nothing. */
  abstract static class ShipHandler implements Handler<Ship> {
    @Override
    public void handle(Ship task, TaskContext context) {}
  }

  final SettableClock clock = new SettableClock(T0);
  final MemoryThrottlerStore store;
  final EngineEvents events = new EngineEvents();
  final io.taskgate.engine.throttle.Throttles throttles =
      io.taskgate.engine.throttle.Throttles.of(java.util.List.of());
  final JobThrottlers family;
  final DefaultThrottlingManager manager;

  FamilyFixture() {
    this(new MemoryThrottlerStore());
  }

  /** A fresh engine over {@code store}, as after a restart. */
  FamilyFixture(MemoryThrottlerStore store) {
    this.store = store;
    family = new JobThrottlers(store, clock, null, events, throttles);
    family.configure(ThrottlingAction.WAIT, null, false, Duration.ofSeconds(30));
    manager = new DefaultThrottlingManager(store, family, clock, null, null, null);
  }

  /** The handler {@code beanClass} as deployment reads it. */
  static HandlerInfo handler(Class<?> beanClass) {
    return TaskgateExtension.describe(beanClass, beanClass.getAnnotation(TaskHandler.class));
  }

  /** The chain of {@code beanClass}'s throttles. */
  ThrottleChain chain(Class<?> beanClass) {
    return ThrottleChain.of(family.throttlesOf(handler(beanClass)));
  }

  /** A first attempt of a new task {@code ship}, due now. */
  ThrottledAttempt attempt(Class<?> beanClass, Ship ship) {
    return attempt(beanClass, UUID.randomUUID(), ship);
  }

  /** An attempt of task {@code id}, due now. */
  ThrottledAttempt attempt(Class<?> beanClass, UUID id, Ship ship) {
    StoredTask task =
        StoredTask.queued(
            id,
            Ship.class.getName(),
            "{}",
            "default",
            null,
            clock.instant(),
            null,
            clock.instant());
    return new ThrottledAttempt(task, handler(beanClass), ship);
  }

  /** A first attempt of a new task {@code ship}, due now, in a worker's batch {@code batch}. */
  ThrottledAttempt attemptIn(String batch, Class<?> beanClass, Ship ship) {
    ThrottledAttempt attempt = attempt(beanClass, ship);
    return new ThrottledAttempt(attempt.task(), attempt.handler(), attempt.payload(), batch);
  }
}
