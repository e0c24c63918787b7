package io.taskgate.engine.throttle.pause;

import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Pausing;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.store.Pause;
import io.taskgate.store.StoredTask;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * The first throttle of every task type: a task whose queue, type or rate-limit key is paused
 * waits, holding nothing, for its pause to end ({@link Pausing#resource}); otherwise it goes on to
 * the other throttles. Thread-safe: it reads the pauses in force.
 */
final class PauseThrottle implements Throttle {
  private final Pausing pauses;

  PauseThrottle(Pausing pauses) {
    this.pauses = pauses;
  }

  @Override
  public String name() {
    return "pause";
  }

  @Override
  public int order() {
    return PAUSES;
  }

  @Override
  public ThrottleDecision acquire(ThrottledAttempt attempt, Instant now) {
    StoredTask task = attempt.task();
    Optional<Pause> pause = pauses.holding(task.queue(), task.type(), task.rateKey());
    if (pause.isEmpty()) {
      return ThrottleDecision.Run.now(Permit.NOTHING);
    }
    return new ThrottleDecision.WaitForRelease(
        Pausing.resource(pause.get().scope(), pause.get().name()));
  }

  @Override
  public Set<String> release(Permit permit, AttemptEnd end) {
    return Set.of();
  }
}
