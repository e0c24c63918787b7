package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlerKind;
import java.util.Map;
import java.util.function.Function;

/**
 * The class of each kind's throttle: a kind picks its class here, nowhere else (what a kind is, the
 * views and checks read from {@link io.taskgate.core.throttle.JobKind}).
 */
final class JobThrottleKinds {
  private static final Map<ThrottlerKind, Function<JobThrottle.Setup, JobThrottle>> KINDS =
      Map.of(
          ThrottlerKind.MUTEX, MutexThrottle::new,
          ThrottlerKind.SEMAPHORE, SemaphoreThrottle::new,
          ThrottlerKind.FIXED_WINDOW, WindowThrottle::new,
          ThrottlerKind.SLIDING_WINDOW, WindowThrottle::new,
          ThrottlerKind.DYNAMIC_WINDOW, WindowThrottle::new);

  private JobThrottleKinds() {}

  /** The throttle {@code setup} describes, of its spec's kind. */
  static JobThrottle make(JobThrottle.Setup setup) {
    return KINDS.get(setup.spec().kind()).apply(setup);
  }
}
