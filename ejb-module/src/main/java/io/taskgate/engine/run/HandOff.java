package io.taskgate.engine.run;

import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.throttle.ResourceWaiters;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The tasks a worker takes on itself when a throttle it gives back frees a permit: instead of going
 * back to their queue one at a time, the first waiters of that resource (for a semaphore whose
 * tasks share a permit per batch, up to a batch of them) run next on the releasing worker, as one
 * batch claimed together. Only for a worker of their queue; per worker thread, while it runs a
 * batch.
 */
final class HandOff {
  private static final ThreadLocal<HandOff> CURRENT = new ThreadLocal<>();

  /** A batch's time. */
  private static final long BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(TaskQueues.BATCH_MILLIS);

  private int fit = TaskQueues.MAX_BATCH;
  private String queue;
  private final List<ResourceWaiters.Waiter> taken = new ArrayList<>();

  private HandOff() {}

  /**
   * Starts taking hand-overs on this thread, at most a queue's batch ({@link #ran}: fewer for
   * longer tasks, which then run side by side on other workers); {@link #end} stops.
   */
  static HandOff begin() {
    HandOff handOff = new HandOff();
    CURRENT.set(handOff);
    return handOff;
  }

  /** This thread's hand-over, if its worker takes them now. */
  static HandOff current() {
    return CURRENT.get();
  }

  /**
   * An attempt on this thread's worker ran its handler for {@code nanos}: it takes on no more
   * waiters than fit in a batch's time at that pace, so that long tasks run side by side on other
   * workers.
   */
  static void ran(long nanos) {
    HandOff handOff = CURRENT.get();
    if (handOff != null) {
      handOff.fit =
          (int) Math.max(1, Math.min(TaskQueues.MAX_BATCH, BATCH_NANOS / Math.max(1, nanos)));
    }
  }

  /** Stops taking hand-overs; returns the tasks taken, in order. */
  List<UUID> end() {
    CURRENT.remove();
    return taken.stream().map(ResourceWaiters.Waiter::taskId).toList();
  }

  /** The batch's queue: only its waiters are taken. */
  void queue(String queue) {
    if (this.queue == null) {
      this.queue = queue;
    }
  }

  /** How many more it takes. */
  int room() {
    return queue == null ? 0 : fit - taken.size();
  }

  /** Whether {@code waiter} may run on this worker (its queue, its copy kept). */
  boolean fits(ResourceWaiters.Waiter waiter) {
    return waiter.queue().equals(queue) && waiter.task() != null;
  }

  /** Takes {@code waiter} on. */
  void take(ResourceWaiters.Waiter waiter) {
    taken.add(waiter);
  }
}
