package io.taskgate.engine.schedule;

import io.taskgate.core.time.Ticker;
import io.taskgate.engine.queue.TaskQueues;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.time.InstantSource;

/** Wires a {@link TaskScheduler} by hand for tests outside this package, as CDI would. */
public final class SchedulerWiring {
  private SchedulerWiring() {}

  /** A scheduler handing tasks to {@code queues}; {@code timers} may be null if none is used. */
  public static TaskScheduler scheduler(
      TaskQueues queues,
      ManagedScheduledExecutorService timers,
      InstantSource clock,
      Ticker ticker) {
    TaskScheduler scheduler = new TaskScheduler();
    scheduler.queues = queues;
    scheduler.timers = timers;
    scheduler.clock = clock;
    scheduler.monotonic = ticker;
    return scheduler;
  }
}
