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
    SharedPermits shared = new SharedPermits(null /* registry */, throttles, scheduler, running);
    Wakeups wakeups = new Wakeups(throttles, shared, running, scheduler, clock);
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
    return new ClaimsAhead(store, scheduler, clock, running, wakeups);
  }
}
