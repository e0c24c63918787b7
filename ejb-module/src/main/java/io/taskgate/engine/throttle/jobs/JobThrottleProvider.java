package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.throttle.JobThrottlerReads;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleProvider;
import io.taskgate.store.TaskQueries;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.List;

/**
 * The job throttlers (mutexes, semaphores, fixed, sliding and dynamic windows) as a kind of
 * throttle: their {@link JobThrottle}s (one class per kind) on the task types that declare them,
 * their holds taken back at start, their state in the data grid, and a semaphore's permit shared by
 * a worker's batch.
 */
@ApplicationScoped
public class JobThrottleProvider implements ThrottleProvider {
  /** The prefix of every semaphore's resource name. */
  private static final String SEMAPHORES = JobThrottlerReads.resource(ThrottlerKind.SEMAPHORE, "");

  @Inject JobThrottlers throttlers;

  @Override
  public List<? extends Throttle> throttlesOf(HandlerInfo handler) {
    return throttlers.throttlesOf(handler);
  }

  @Override
  public int start(Collection<HandlerInfo> handlers, TaskQueries queries, Payloads payloads) {
    return throttlers.rebuild(handlers, queries, payloads);
  }

  @Override
  public void useState(ThrottlerState state) {
    throttlers.useState(state);
  }

  @Override
  public boolean sharesPermits(HandlerInfo handler) {
    return throttlers.sharesPermits(handler);
  }

  @Override
  public boolean handsOverOnRelease(String resource) {
    return resource.startsWith(SEMAPHORES);
  }
}
