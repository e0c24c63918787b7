package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlingAction;
import io.taskgate.engine.handler.ThrottlerSpec;
import java.time.Duration;

/** A task type's {@code @Mutex}: one owner at a time per filled id, created on first use. */
final class MutexThrottle extends HoldingThrottle {
  MutexThrottle(
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
    return 1;
  }
}
