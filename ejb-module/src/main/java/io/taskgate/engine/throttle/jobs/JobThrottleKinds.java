package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.engine.handler.ThrottlerSpec;
import io.taskgate.engine.throttle.JobThrottlerReads.Resolved;
import java.time.Duration;
import java.util.Map;

/**
 * The class of each kind's throttle: a kind picks its class here, nowhere else (what a kind is, the
 * views and checks read from {@link io.taskgate.core.throttle.JobKind}).
 */
final class JobThrottleKinds {
  /** Makes the throttle of one kind. */
  @FunctionalInterface
  private interface Maker {
    JobThrottle make(
        ThrottlerSpec spec,
        String handler,
        JobThrottlers family,
        ThrottlingAction action,
        Duration maxWait,
        boolean strict);
  }

  private static final Map<ThrottlerKind, Maker> KINDS =
      Map.of(
          ThrottlerKind.MUTEX, MutexThrottle::new,
          ThrottlerKind.SEMAPHORE, SemaphoreThrottle::new,
          ThrottlerKind.FIXED_WINDOW, JobThrottleKinds::window,
          ThrottlerKind.SLIDING_WINDOW, JobThrottleKinds::window,
          ThrottlerKind.DYNAMIC_WINDOW, JobThrottleKinds::window);

  private JobThrottleKinds() {}

  /** The throttle {@code spec} of {@code handler}, with {@code resolved} defaults. */
  static JobThrottle make(
      ThrottlerSpec spec, String handler, JobThrottlers family, Resolved resolved) {
    return KINDS
        .get(spec.kind())
        .make(spec, handler, family, resolved.action(), resolved.maxWait(), resolved.strict());
  }

  /** A window's throttle: nothing is held, so strictness does not apply. */
  private static JobThrottle window(
      ThrottlerSpec spec,
      String handler,
      JobThrottlers family,
      ThrottlingAction action,
      Duration maxWait,
      boolean strict) {
    return new WindowThrottle(spec, handler, family, action, maxWait);
  }
}
