package io.taskgate.engine.throttle.concurrency;

import io.taskgate.core.throttle.Holders;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A task type's {@link ConcurrencyLimit}: an attempt holds one of its key's {@code limit} places
 * while it runs, and gives it back when it ends, whatever the end; an attempt that finds its key
 * full waits for a release, holding no worker. Acquired with the other held resources, before the
 * windows and the rate limit. Thread-safe: the holders are in a {@link ThrottlerState} (this
 * instance's, or the data grid's, shared by every instance).
 */
final class ConcurrencyThrottle implements Throttle {
  /** When a waiting task looks again by itself, should the wake-up of a release not reach it. */
  static final Duration RECHECK = Duration.ofSeconds(30);

  /** When a task asks again after the state did not answer. */
  static final Duration UNAVAILABLE_RETRY = Duration.ofSeconds(1);

  /** The place a running attempt holds: its key's resource, under the task's id. */
  record Place(String resource, String taskId) implements Permit {}

  private final ConcurrencyLimit limit;
  private final Supplier<ThrottlerState> state;

  ConcurrencyThrottle(ConcurrencyLimit limit, Supplier<ThrottlerState> state) {
    this.limit = limit;
    this.state = state;
  }

  @Override
  public String name() {
    return limit.name();
  }

  @Override
  public int order() {
    return RESOURCES;
  }

  @Override
  public ThrottleDecision acquire(ThrottledAttempt attempt, Instant now) {
    String resource;
    try {
      resource = limit.resource(attempt.payload());
    } catch (IllegalArgumentException e) {
      return new ThrottleDecision.Reject(
          name() + ": " + e.getMessage(), null, new IllegalArgumentException(e.getMessage(), e));
    }
    String taskId = attempt.task().id().toString();
    Holders.Acquired acquired;
    try {
      acquired = state.get().acquire(resource, taskId, taskId, limit.limit());
    } catch (ThrottlerState.Unavailable e) {
      return new ThrottleDecision.RetryAt(now.plus(UNAVAILABLE_RETRY));
    }
    if (acquired == Holders.Acquired.REFUSED) {
      return new ThrottleDecision.WaitForRelease(resource, now.plus(RECHECK));
    }
    return ThrottleDecision.Run.now(new Place(resource, taskId));
  }

  @Override
  public Set<String> release(Permit permit, AttemptEnd end) {
    if (permit instanceof Place place
        && state.get().release(place.resource(), place.taskId(), place.taskId())) {
      return Set.of(place.resource());
    }
    return Set.of();
  }

  @Override
  public String toString() {
    return name();
  }
}
