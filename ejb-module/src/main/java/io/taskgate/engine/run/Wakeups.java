package io.taskgate.engine.run;

import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.ResourceWaiters;
import io.taskgate.engine.throttle.Throttles;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wakes the tasks waiting for a resource its throttles freed ({@link Throttles#waiters}): at the
 * end of an attempt, when a claim is lost, or outside any attempt ({@link Throttles#onFreed}: a
 * task ended while holding, a release on another instance, a semaphore grew).
 */
@ApplicationScoped
class Wakeups {
  private final Throttles throttles;
  private final SharedPermits shared;
  private final RunningTasks running;
  private final TaskScheduler scheduler;
  private final InstantSource clock;

  private ResourceWaiters waiters;
  private final Map<UUID, String> wokenInFlight = new ConcurrentHashMap<>();

  /** For the CDI proxy. */
  protected Wakeups() {
    this(null, null, null, null, null);
  }

  @Inject
  Wakeups(
      Throttles throttles,
      SharedPermits shared,
      RunningTasks running,
      TaskScheduler scheduler,
      InstantSource clock) {
    this.throttles = throttles;
    this.shared = shared;
    this.running = running;
    this.scheduler = scheduler;
    this.clock = clock;
  }

  @PostConstruct
  void listen() {
    waiters = throttles.waiters();
    throttles.onFreed(this::released);
  }

  /**
   * Throttles freed {@code resources}: the first task waiting for each goes back to its queue; or,
   * for a semaphore whose tasks share a permit per batch, freed by a queue's worker, the first
   * waiters of that queue run next on that worker ({@link HandOff}).
   */
  void released(Set<String> resources) {
    HandOff handOff = HandOff.current();
    for (String resource : resources) {
      if (shared.handsOver(handOff, resource)) {
        shared.handOver(waiters, resource, handOff).forEach(this::wake);
      } else {
        // a mutex's next task starts at once on another worker, not after this worker's commit
        waiters.released(resource).ifPresent(this::wake);
      }
    }
  }

  /**
   * A waiter goes back to its queue now: its recheck timer, if any, is dropped; if a worker still
   * has it (its wait is being recorded), its follow-up submits it instead ({@link
   * #takeWokenInFlight}).
   */
  private void wake(ResourceWaiters.Waiter waiter) {
    if (waiter.task() != null) {
      running.justStored(waiter.task()); // read once: its claim compares against this copy
    }
    scheduler.cancelTimer(waiter.taskId());
    if (!scheduler.submit(waiter.queue(), waiter.taskId(), clock.instant())) {
      wokenInFlight.put(waiter.taskId(), waiter.queue());
    }
  }

  /**
   * The queue of a task woken while the engine still held it (between its throttle's answer and its
   * follow-up), which must now go back to it at once; null if it was not.
   */
  String takeWokenInFlight(UUID taskId) {
    return wokenInFlight.isEmpty() ? null : wokenInFlight.remove(taskId);
  }
}
