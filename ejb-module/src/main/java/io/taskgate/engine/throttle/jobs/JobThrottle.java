package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlerMode;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.api.UnknownThrottlerException;
import io.taskgate.core.throttle.JobKind;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.handler.ThrottlerSpec;
import io.taskgate.engine.throttle.JobThrottlerReads;
import io.taskgate.engine.throttle.JobThrottlerReads.Resolved;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What every job throttler of a task type does, whatever its kind: fills its ids from the task,
 * lets a {@link ThrottlerMode#RELEASE_ONLY} one through, and decides what becomes of a task it does
 * not let run: it waits (for the release of its resource, or until its window opens) or is dropped,
 * as its handler's {@link ThrottlingAction} says; a task that waited longer than its max wait is
 * dropped. One subclass per kind ({@link MutexThrottle}, {@link SemaphoreThrottle}, {@link
 * WindowThrottle}), built by {@link JobThrottlers#throttlesOf} from the kind. Thread-safe: the
 * state is in a {@link ThrottlerState}.
 */
abstract class JobThrottle implements Throttle {
  private static final Logger LOG = Logger.getLogger(JobThrottle.class.getName());

  /** When a task asks again after the state did not answer. */
  static final Duration UNAVAILABLE_RETRY = Duration.ofSeconds(1);

  /**
   * What a run holds: the resource, and whether this attempt took it (not held from before); for a
   * window, the bucket its start was counted in (-1: none).
   */
  record JobPermit(
      String resource, String owner, String taskId, boolean fresh, String sub, long bucketStart)
      implements Permit {}

  /**
   * What a throttle is made of: the throttler {@code spec} of {@code handler}'s task type, the
   * throttlers' {@code family} (state, definitions, stats) and the task type's throttling with the
   * global defaults applied ({@code resolved}).
   */
  record Setup(ThrottlerSpec spec, String handler, JobThrottlers family, Resolved resolved) {}

  /**
   * What an attempt asks for: throttler {@code id} ({@code resource}, {@code kind:id}), held by
   * {@code owner} for {@code taskId}; {@code sub} a dynamic window's sub-id (null otherwise).
   */
  record Ask(String id, String resource, String owner, String sub, String taskId) {}

  final ThrottlerSpec spec;
  final JobThrottlers family;
  final Resolved resolved;
  private final String handler;

  /** The throttle {@code setup} describes. */
  JobThrottle(Setup setup) {
    this.spec = setup.spec();
    this.handler = setup.handler();
    this.family = setup.family();
    this.resolved = setup.resolved();
  }

  @Override
  public String name() {
    return spec.name();
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
    String resource = JobThrottlerReads.resource(spec.kind(), id);
    String taskId = attempt.task().id().toString();
    if (owner == null) {
      owner = leased(attempt) ? attempt.batch() : taskId;
    }
    if (spec.mode() == ThrottlerMode.RELEASE_ONLY) {
      return ThrottleDecision.Run.now(releaseOnly(resource, owner, taskId));
    }
    return acquire(attempt, now, new Ask(id, resource, owner, sub, taskId));
  }

  /** Takes what this kind takes for {@code ask}. */
  abstract ThrottleDecision acquire(ThrottledAttempt attempt, Instant now, Ask ask);

  /** The permit of an attempt let through without taking anything (release only). */
  abstract Permit releaseOnly(String resource, String owner, String taskId);

  /** Whether the attempt holds under its worker's batch rather than as itself: {@link #acquire}. */
  boolean leased(ThrottledAttempt attempt) {
    return false;
  }

  /** The state did not answer: the task asks again a little later, holding nothing. */
  ThrottleDecision unavailable(Instant now, ThrottlerState.Unavailable e) {
    LOG.log(
        Level.FINE, name() + ": " + e.getMessage() + "; asked again in " + UNAVAILABLE_RETRY, e);
    return new ThrottleDecision.RetryAt(now.plus(UNAVAILABLE_RETRY));
  }

  ThrottleDecision unknown(String id) {
    UnknownThrottlerException e = new UnknownThrottlerException(spec.kind(), id, handler);
    return new ThrottleDecision.Reject(e.getMessage(), null, e);
  }

  /**
   * The task may not run now: {@code id} of {@code resource} has its {@code limit} reached, and a
   * window opens again at {@code opensAt} (null: a resource waits for a release).
   */
  ThrottleDecision refused(
      ThrottledAttempt attempt,
      Instant now,
      String resource,
      String id,
      Instant opensAt,
      int limit) {
    String full = JobKind.of(spec.kind()).refusal(id, limit, opensAt);
    if (resolved.action() == ThrottlingAction.DROP) {
      family.stats().dropped(name(), attempt.task());
      return new ThrottleDecision.Drop(name(), "dropped: " + full + " (throttling action DROP)");
    }
    Instant due = attempt.task().scheduledAt();
    Duration maxWait = resolved.maxWait();
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
  public String toString() {
    return name();
  }
}
