package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.engine.throttle.PushBack;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An upstream's push-back on a task the gate let through with a key: the key's schedule moves so
 * that nothing of it starts before the upstream's retry-after (in the data grid too when the
 * budgets live there; {@link KeyedRateLimiter#shift}), the push-back is kept for the views ({@link
 * PushBacks}), and the task comes back to its gate at once, which parks it at the slot now reserved
 * for it, first of its key.
 */
@ApplicationScoped
class KeyPushBacks {
  private static final Logger LOG = Logger.getLogger(KeyPushBacks.class.getName());

  private final KeyedRateLimiter limiter;
  private final PushBacks pushBacks;

  /** For the CDI proxy. */
  protected KeyPushBacks() {
    this(null, null);
  }

  @Inject
  KeyPushBacks(KeyedRateLimiter limiter, PushBacks pushBacks) {
    this.limiter = limiter;
    this.pushBacks = pushBacks;
  }

  /**
   * The key's schedule moves after {@code until}; returns when the task comes back to its gate
   * ({@code now}), or null if the limiter failed (the task then waits alone).
   */
  Instant pushedBack(RateLimitGate.GatePermit permit, Instant until, Instant now, String reason) {
    long shift;
    try {
      shift =
          limiter.shift(
              permit.scope(),
              permit.key(),
              EpochNanos.of(until),
              EpochNanos.of(now),
              permit.taskId());
      pushBacks.record(permit.scope().name(), permit.key(), new PushBack(now, until, reason));
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate could not move the slots of key " + permit.key() + "; the task waits alone",
          e);
      return null;
    }
    LOG.info(
        () ->
            "Key "
                + permit.key()
                + " starts nothing before "
                + until
                + (shift > 0
                    ? "; its parked tasks moved " + Duration.ofNanos(shift) + " later"
                    : ""));
    return now;
  }
}
