package io.taskgate.engine.throttle.jobs;

/** A task type's {@code @Mutex}: one owner at a time per filled id, created on first use. */
final class MutexThrottle extends HoldingThrottle {
  MutexThrottle(Setup setup) {
    super(setup);
  }

  @Override
  Integer limit(String id) {
    return 1;
  }
}
