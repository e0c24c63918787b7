package io.taskgate.engine.throttle.jobs;

import io.taskgate.core.throttle.Holders;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * A job throttler held while the task runs, acquired first ({@link #RESOURCES}): a mutex or a
 * semaphore. A relaxed one gives its permit back whenever an attempt stops running; a strict one
 * only at the task's final state, or when the attempt that took it never ran.
 */
abstract class HoldingThrottle extends JobThrottle {
  /** The ends after which a strict throttle gives its permit back: the task's final states. */
  private static final Set<AttemptEnd> FINAL =
      EnumSet.of(
          AttemptEnd.COMPLETED, AttemptEnd.FAILED, AttemptEnd.TIMED_OUT, AttemptEnd.CANCELLED);

  /** The ends of an attempt that never ran the handler. */
  private static final Set<AttemptEnd> NEVER_RAN =
      EnumSet.of(AttemptEnd.NOT_STARTED, AttemptEnd.ABORTED);

  HoldingThrottle(Setup setup) {
    super(setup);
  }

  @Override
  public int order() {
    return RESOURCES;
  }

  /** How many owners may hold {@code id} at once; null when it is not defined. */
  abstract Integer limit(String id);

  @Override
  ThrottleDecision acquire(ThrottledAttempt attempt, Instant now, Ask ask) {
    Integer limit = limit(ask.id());
    if (limit == null) {
      return unknown(ask.id());
    }
    Holders.Acquired acquired;
    try {
      acquired = family.state().acquire(ask.resource(), ask.owner(), ask.taskId(), limit);
    } catch (ThrottlerState.Unavailable e) {
      return unavailable(now, e);
    }
    if (acquired == Holders.Acquired.REFUSED) {
      return refused(attempt, now, ask.resource(), ask.id(), null, limit);
    }
    family.stats().acquired(name(), ask.taskId(), now);
    return ThrottleDecision.Run.now(
        new JobPermit(
            ask.resource(),
            ask.owner(),
            ask.taskId(),
            acquired == Holders.Acquired.GRANTED,
            null,
            -1));
  }

  @Override
  Permit releaseOnly(String resource, String owner, String taskId) {
    return new JobPermit(resource, owner, taskId, false, null, -1);
  }

  @Override
  public Set<String> release(Permit permit, AttemptEnd end) {
    if (!(permit instanceof JobPermit p)) {
      return Set.of();
    }
    boolean now =
        !resolved.strict() || FINAL.contains(end) || (NEVER_RAN.contains(end) && p.fresh());
    if (now && family.state().release(p.resource(), p.owner(), p.taskId())) {
      return Set.of(p.resource());
    }
    return Set.of();
  }
}
