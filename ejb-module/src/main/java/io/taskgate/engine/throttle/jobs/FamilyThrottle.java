package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlerMode;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.api.UnknownThrottlerException;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.Holders;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.core.throttle.WindowCounts;
import io.taskgate.engine.handler.ThrottlerSpec;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One job throttler of a task type: a mutex or semaphore (held while the task runs, acquired first)
 * or a fixed, sliding or dynamic window (a start counted, nothing held, given back if the attempt
 * does not start; acquired before the rate limit). A task it does not let run waits (for the
 * release of its resource, or until its window opens) or is dropped, as its handler's {@link
 * ThrottlingAction} says; a task that waited longer than its max wait is dropped. Thread-safe: the
 * state is in a {@link ThrottlerState}.
 */
final class FamilyThrottle implements Throttle {
  private static final Logger LOG = Logger.getLogger(FamilyThrottle.class.getName());

  /** When a task asks again after the state did not answer. */
  static final Duration UNAVAILABLE_RETRY = Duration.ofSeconds(1);

  /** The ends after which a strict throttle gives its permit back: the task's final states. */
  private static final Set<AttemptEnd> FINAL =
      EnumSet.of(
          AttemptEnd.COMPLETED, AttemptEnd.FAILED, AttemptEnd.TIMED_OUT, AttemptEnd.CANCELLED);

  /** The ends of an attempt that never ran the handler. */
  private static final Set<AttemptEnd> NEVER_RAN =
      EnumSet.of(AttemptEnd.NOT_STARTED, AttemptEnd.ABORTED);

  /** What a run holds: the resource, and whether this attempt took it (not held from before). */
  record FamilyPermit(
      String resource, String owner, String taskId, boolean fresh, String sub, long bucketStart)
      implements Permit {}

  private final ThrottlerSpec spec;
  private final String handler;
  private final JobThrottlers family;
  private final ThrottlingAction action;
  private final Duration maxWait;
  private final boolean strict;

  FamilyThrottle(
      ThrottlerSpec spec,
      String handler,
      JobThrottlers family,
      ThrottlingAction action,
      Duration maxWait,
      boolean strict) {
    this.spec = spec;
    this.handler = handler;
    this.family = family;
    this.action = action;
    this.maxWait = maxWait;
    this.strict = strict;
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public int order() {
    return spec.holds() ? RESOURCES : WINDOWS;
  }

  ThrottlerSpec spec() {
    return spec;
  }

  @Override
  public ThrottleDecision acquire(ThrottledAttempt attempt, Instant now) {
    String id;
    String owner;
    String sub;
    try {
      id = spec.resource().fill(attempt.payload());
      owner = spec.owner() == null ? null : spec.owner().fill(attempt.payload());
      sub = spec.window() == null ? null : spec.window().fill(attempt.payload());
    } catch (IllegalArgumentException e) {
      return new ThrottleDecision.Reject(
          name() + ": " + e.getMessage(), null, new IllegalArgumentException(e.getMessage(), e));
    }
    String resource = JobThrottlers.resource(spec.kind(), id);
    String taskId = attempt.task().id().toString();
    if (owner == null) {
      owner = leased(attempt) ? attempt.batch() : taskId;
    }
    if (spec.mode() == ThrottlerMode.RELEASE_ONLY) {
      return ThrottleDecision.Run.now(
          spec.holds()
              ? new FamilyPermit(resource, owner, taskId, false, null, -1)
              : Permit.NOTHING);
    }
    ThrottlerState state = family.state();
    if (spec.holds()) {
      int limit = 1;
      if (spec.kind() == ThrottlerKind.SEMAPHORE) {
        Integer max = family.semaphore(id);
        if (max == null) {
          return unknown(id);
        }
        limit = max;
      }
      Holders.Acquired acquired;
      try {
        acquired = state.acquire(resource, owner, taskId, limit);
      } catch (ThrottlerState.Unavailable e) {
        return unavailable(now, e);
      }
      if (acquired != Holders.Acquired.REFUSED) {
        family.stats().acquired(name(), taskId, now);
        return ThrottleDecision.Run.now(
            new FamilyPermit(
                resource, owner, taskId, acquired == Holders.Acquired.GRANTED, null, -1));
      }
      return refused(attempt, now, resource, id, null, limit);
    }
    WindowOptions window = family.window(spec.kind(), id);
    if (window == null) {
      return unknown(id);
    }
    WindowCounts.Grant grant;
    try {
      grant = state.count(resource, sub, now.toEpochMilli(), window);
    } catch (ThrottlerState.Unavailable e) {
      return unavailable(now, e);
    }
    if (grant.granted()) {
      family.counted(resource, sub, grant.bucketStart(), 1);
      family.stats().acquired(name(), taskId, now);
      family.retrying(resource, taskId, false);
      return ThrottleDecision.Run.now(
          new FamilyPermit(resource, null, taskId, true, sub, grant.bucketStart()));
    }
    return refused(
        attempt,
        now,
        resource,
        id + (sub == null ? "" : "/" + sub),
        Instant.ofEpochMilli(grant.opensAt()),
        window.limit());
  }

  /**
   * Whether the tasks of one worker's batch share one permit of this semaphore, held under the
   * batch's id: they run one after another on that worker, so one permit keeps them within the
   * count, and they are claimed and stored together. Only for relaxed throttling without a rate
   * limit (whose tasks may wait for their slot away from the worker): {@link
   * JobThrottlers#sharesPermits}.
   */
  private boolean leased(ThrottledAttempt attempt) {
    return attempt.batch() != null
        && spec.kind() == ThrottlerKind.SEMAPHORE
        && family.sharesPermits(attempt.handler());
  }

  /** The state did not answer: the task asks again a little later, holding nothing. */
  private ThrottleDecision unavailable(Instant now, ThrottlerState.Unavailable e) {
    LOG.log(
        Level.FINE, name() + ": " + e.getMessage() + "; asked again in " + UNAVAILABLE_RETRY, e);
    return new ThrottleDecision.RetryAt(now.plus(UNAVAILABLE_RETRY));
  }

  private ThrottleDecision unknown(String id) {
    UnknownThrottlerException e = new UnknownThrottlerException(spec.kind(), id, handler);
    return new ThrottleDecision.Reject(e.getMessage(), null, e);
  }

  private ThrottleDecision refused(
      ThrottledAttempt attempt,
      Instant now,
      String resource,
      String id,
      Instant opensAt,
      int limit) {
    String full =
        spec.kind().label()
            + " '"
            + id
            + "' "
            + (spec.kind() == ThrottlerKind.MUTEX
                ? "is held by another task"
                : spec.holds()
                    ? "has all its " + limit + " permits held"
                    : "is full until " + opensAt);
    if (action == ThrottlingAction.DROP) {
      family.stats().dropped(name(), attempt.task());
      return new ThrottleDecision.Drop(name(), "dropped: " + full + " (throttling action DROP)");
    }
    Instant due = attempt.task().scheduledAt();
    Instant deadline = maxWait == null ? null : due.plus(maxWait);
    if (deadline != null && !now.isBefore(deadline)) {
      family.stats().dropped(name(), attempt.task());
      return new ThrottleDecision.Drop(
          name(), "dropped: waited longer than its max wait " + maxWait + ", and " + full);
    }
    family.stats().waited(name(), attempt.task(), now);
    if (opensAt != null) {
      return new ThrottleDecision.RetryAt(
          deadline != null && deadline.isBefore(opensAt) ? deadline : opensAt);
    }
    Instant recheck = now.plus(family.recheck());
    return new ThrottleDecision.WaitForRelease(
        resource, deadline != null && deadline.isBefore(recheck) ? deadline : recheck);
  }

  @Override
  public Set<String> release(Permit permit, AttemptEnd end) {
    if (!(permit instanceof FamilyPermit p)) {
      return Set.of();
    }
    if (!spec.holds()) {
      if (end == AttemptEnd.NOT_STARTED && p.bucketStart() >= 0) {
        family.state().giveBack(p.resource(), p.sub(), p.bucketStart()); // it never ran
        family.counted(p.resource(), p.sub(), p.bucketStart(), -1);
      }
      return Set.of();
    }
    boolean now = !strict || FINAL.contains(end) || (NEVER_RAN.contains(end) && p.fresh());
    if (now && family.state().release(p.resource(), p.owner(), p.taskId())) {
      return Set.of(p.resource());
    }
    return Set.of();
  }

  @Override
  public String toString() {
    return name();
  }
}
