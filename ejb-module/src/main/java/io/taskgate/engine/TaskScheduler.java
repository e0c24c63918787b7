package io.taskgate.engine;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Brings stored tasks to their queue when they are due: at once, or later through the {@link
 * ManagedScheduledExecutorService}. It tracks every task id it holds (timer, channel or worker), so
 * that the periodic sweep never hands one task to the engine twice.
 */
@ApplicationScoped
public class TaskScheduler {
  private static final Logger LOG = Logger.getLogger(TaskScheduler.class.getName());

  @Resource ManagedScheduledExecutorService timers;

  @Inject TaskQueues queues;

  @Inject InstantSource clock;

  private final Set<UUID> tracked = ConcurrentHashMap.newKeySet();
  private final Map<UUID, ScheduledFuture<?>> pending = new ConcurrentHashMap<>();

  /**
   * Hands the task to {@code queue} at {@code due}. Returns false if the task is already held.
   *
   * @throws QueueFullException when it is due now and the queue stays full (it is stored, the sweep
   *     brings it back)
   */
  public boolean submit(String queue, UUID taskId, Instant due) {
    return submit(queue, taskId, due, false);
  }

  /**
   * Hands a parked task to {@code queue}'s due lane at its rate-limit slot (see {@link
   * TaskQueues#enqueueDue}): it runs ahead of the queue's backlog. Returns false if the task is
   * already held.
   */
  boolean redeemAt(String queue, UUID taskId, Instant slot) {
    return submit(queue, taskId, slot, true);
  }

  private boolean submit(String queue, UUID taskId, Instant due, boolean redemption) {
    if (!tracked.add(taskId)) {
      return false;
    }
    Duration wait = Duration.between(clock.instant(), due);
    if (wait.isNegative() || wait.isZero()) {
      if (redemption) {
        queues.enqueueDue(queue, taskId);
      } else {
        enqueueOrForget(queue, taskId, true);
      }
    } else {
      pending.put(
          taskId,
          timers.schedule(
              () -> {
                pending.remove(taskId);
                if (redemption) {
                  queues.enqueueDue(queue, taskId);
                } else {
                  enqueueOrForget(queue, taskId, false);
                }
              },
              wait.toNanos(),
              TimeUnit.NANOSECONDS));
    }
    return true;
  }

  /** Drops the timer of a task that has not come due. Returns whether there was one. */
  public boolean cancelTimer(UUID taskId) {
    ScheduledFuture<?> timer = pending.remove(taskId);
    if (timer == null) {
      return false;
    }
    timer.cancel(false);
    tracked.remove(taskId);
    return true;
  }

  /** The engine is done with this task id (it ran, or a new submit follows). */
  void release(UUID taskId) {
    tracked.remove(taskId);
  }

  /** Whether the task is held in memory (timer, channel or worker). */
  public boolean holds(UUID taskId) {
    return tracked.contains(taskId);
  }

  /** Whether the task waits on a timer (scheduled for later, or parked until its slot). */
  public boolean hasTimer(UUID taskId) {
    return pending.containsKey(taskId);
  }

  /** Tasks waiting on a timer. */
  public int timersPending() {
    return pending.size();
  }

  private void enqueueOrForget(String queue, UUID taskId, boolean rethrow) {
    try {
      queues.enqueue(queue, taskId);
    } catch (QueueFullException e) {
      tracked.remove(taskId);
      if (rethrow) {
        throw e;
      }
      LOG.log(Level.WARNING, e.getMessage());
    }
  }
}
