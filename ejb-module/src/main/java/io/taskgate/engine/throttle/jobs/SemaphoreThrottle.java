package io.taskgate.engine.throttle.jobs;

import io.taskgate.engine.throttle.ThrottledAttempt;

/** A task type's {@code @Semaphore}: at most its defined max count of owners at once. */
final class SemaphoreThrottle extends HoldingThrottle {
  SemaphoreThrottle(Setup setup) {
    super(setup);
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
