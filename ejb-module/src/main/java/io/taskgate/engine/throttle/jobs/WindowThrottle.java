package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.core.throttle.WindowCounts;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Instant;
import java.util.Set;

/**
 * A task type's fixed, sliding or dynamic window ({@code @FixedWindow}, {@code @SlidingWindow},
 * {@code @DynamicWindow}): a start counted, nothing held, acquired after the held resources and
 * before the rate limit ({@link #WINDOWS}). A start counted for an attempt that does not start is
 * given back. A dynamic window counts in the sub-window of the task's filled sub-id; the others
 * count in the one window of their id.
 */
final class WindowThrottle extends JobThrottle {
  WindowThrottle(Setup setup) {
    super(setup);
  }

  @Override
  public int order() {
    return WINDOWS;
  }

  @Override
  ThrottleDecision acquire(ThrottledAttempt attempt, Instant now, Ask ask) {
    String id = ask.id();
    String resource = ask.resource();
    String sub = ask.sub();
    String taskId = ask.taskId();
    WindowOptions window = family.definitions().window(spec.kind(), id);
    if (window == null) {
      return unknown(id);
    }
    WindowCounts.Grant grant;
    try {
      grant = family.state().count(resource, sub, now.toEpochMilli(), window);
    } catch (ThrottlerState.Unavailable e) {
      return unavailable(now, e);
    }
    if (grant.granted()) {
      family.counted(resource, sub, grant.bucketStart(), 1);
      family.stats().acquired(name(), taskId, now);
      family.retrying(resource, taskId, false);
      return ThrottleDecision.Run.now(
          new JobPermit(resource, null, taskId, true, sub, grant.bucketStart()));
    }
    return refused(
        attempt,
        now,
        resource,
        id + (sub == null ? "" : "/" + sub),
        Instant.ofEpochMilli(grant.opensAt()),
        window.limit());
  }

  @Override
  Permit releaseOnly(String resource, String owner, String taskId) {
    return Permit.NOTHING;
  }

  @Override
  public Set<String> release(Permit permit, AttemptEnd end) {
    if (permit instanceof JobPermit p && end == AttemptEnd.NOT_STARTED && p.bucketStart() >= 0) {
      family.state().giveBack(p.resource(), p.sub(), p.bucketStart()); // it never ran
      family.counted(p.resource(), p.sub(), p.bucketStart(), -1);
    }
    return Set.of();
  }
}
