package io.taskgate.engine.throttle.jobs;

import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.throttle.ResourceWaiters;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A semaphore that grew lets waiting tasks in: after the change is stored, off the caller's thread
 * (on the managed executor; on it without one, outside the container), at most as many of the tasks
 * waiting for it on this instance as it gained permits and never more than wait, and the other
 * instances are told in one message, where the same holds. The work is bounded by the waiters,
 * never by the new count: a {@code maxCount} of a million wakes the three tasks waiting.
 */
final class SemaphoreGrowth {
  private static final Logger LOG = Logger.getLogger(SemaphoreGrowth.class.getName());

  private SemaphoreGrowth() {}

  /**
   * Wakes, on {@code executor}, the tasks waiting for {@code resource} here ({@code here}) and
   * tells the other instances through {@code state}; nothing when it did not grow.
   */
  static void wake(
      Executor executor,
      String resource,
      int permits,
      BiConsumer<String, Integer> here,
      ThrottlerState state) {
    if (permits < 1) {
      return;
    }
    Runnable wake =
        () -> {
          here.accept(resource, permits);
          state.announceGrown(resource, permits);
        };
    if (executor == null) {
      wake.run();
      return;
    }
    try {
      executor.execute(wake);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate could not wake the tasks waiting for "
              + resource
              + "; they look again at their recheck",
          e);
    }
  }

  /**
   * Frees {@code resource} to {@code onFreed} once for each task waiting for it in {@code waiters},
   * at most {@code permits} times; returns how many.
   */
  static int wakeHere(
      ResourceWaiters waiters, Consumer<Set<String>> onFreed, String resource, int permits) {
    int waiting = Math.min(permits, waiters.count(resource));
    for (int i = 0; i < waiting; i++) {
      onFreed.accept(Set.of(resource));
    }
    return waiting;
  }
}
