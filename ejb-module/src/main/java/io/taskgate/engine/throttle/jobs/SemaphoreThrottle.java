package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlingAction;
import io.taskgate.engine.handler.ThrottlerSpec;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Duration;

/** A task type's {@code @Semaphore}: at most its defined max count of owners at once. */
final class SemaphoreThrottle extends HoldingThrottle {
  SemaphoreThrottle(
      ThrottlerSpec spec,
      String handler,
      JobThrottlers family,
      ThrottlingAction action,
      Duration maxWait,
      boolean strict) {
    super(spec, handler, family, action, maxWait, strict);
  }

  @Override
  Integer limit(String id) {
    return family.definitions().semaphore(id);
  }

  /**
   * Whether the tasks of one worker's batch share one permit, held under the batch's id: they run
   * one after another on that worker, so one permit keeps them within the count, and they are
   * claimed and stored together. Only for relaxed throttling without a rate limit (whose tasks may
   * wait for their slot away from the worker): {@link JobThrottlers#sharesPermits}.
   */
  @Override
  boolean leased(ThrottledAttempt attempt) {
    return attempt.batch() != null && family.sharesPermits(attempt.handler());
  }
}
