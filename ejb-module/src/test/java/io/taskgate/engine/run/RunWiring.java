package io.taskgate.engine.run;

import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.TaskStore;
import java.time.InstantSource;

/** The run package's beans wired by hand, for tests outside the container. */
final class RunWiring {
  private RunWiring() {}

  /** Wakes the waiters of {@code throttles}' freed resources. */
  static Wakeups wakeups(
      Throttles throttles, RunningTasks running, TaskScheduler scheduler, InstantSource clock) {
    SharedPermits shared = new SharedPermits();
    shared.throttles = throttles;
    shared.running = running;
    shared.scheduler = scheduler;
    Wakeups wakeups = new Wakeups();
    wakeups.throttles = throttles;
    wakeups.shared = shared;
    wakeups.running = running;
    wakeups.scheduler = scheduler;
    wakeups.clock = clock;
    wakeups.listen();
    return wakeups;
  }

  /** Places and cancels the tasks claimed ahead of their slot. */
  static ClaimsAhead claimsAhead(
      TaskStore store,
      RunningTasks running,
      TaskScheduler scheduler,
      InstantSource clock,
      Wakeups wakeups) {
    ClaimsAhead ahead = new ClaimsAhead();
    ahead.store = store;
    ahead.running = running;
    ahead.scheduler = scheduler;
    ahead.clock = clock;
    ahead.wakeups = wakeups;
    return ahead;
  }
}
