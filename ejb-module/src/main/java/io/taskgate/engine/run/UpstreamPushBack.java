package io.taskgate.engine.run;

import io.taskgate.api.TaskStatus;
import io.taskgate.api.UpstreamRateLimitException;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.throttle.PushBack;
import io.taskgate.engine.throttle.gate.PushBacks;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A handler's upstream said "slow down" ({@link UpstreamRateLimitException}): the attempt does not
 * count and the task goes back to {@code QUEUED}; for a rate-limited task the key's schedule moves
 * so that nothing of it starts before the upstream's retry-after (in the data grid too when the
 * budgets live there), and the task comes back to its gate at once, which parks it at the key's
 * next slot; a task without a key waits the retry-after itself.
 */
@ApplicationScoped
class UpstreamPushBack {
  private static final Logger LOG = Logger.getLogger(UpstreamPushBack.class.getName());

  @Inject KeyedRateLimiter limiter;
  @Inject PushBacks pushBacks;

  AttemptOutcome pushedBack(
      StoredTask claimed, Claim claim, UpstreamRateLimitException upstream, Instant end) {
    Duration wait = upstream.retryAfter();
    Instant until = end.plus(wait);
    Instant due = until;
    long shift = 0;
    if (claim.key() != null && claim.policy() != null) {
      try {
        shift =
            limiter.shift(
                new RateLimitScope(claim.scope(), claim.policy()),
                claim.key(),
                EpochNanos.of(until),
                EpochNanos.of(end),
                claimed.id());
        due = end; // its gate parks it at the slot now reserved for it, `until`, first of its key
        pushBacks.record(
            claim.scope(), claim.key(), new PushBack(end, until, upstream.getMessage()));
      } catch (RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "Taskgate could not move the slots of key " + claim.key() + "; the task waits alone",
            e);
      }
    }
    long shifted = shift;
    LOG.info(
        () ->
            "Task "
                + claimed.id()
                + " ("
                + claimed.type()
                + "): its upstream asked to slow down for "
                + wait
                + (claim.key() == null
                    ? ""
                    : "; key "
                        + claim.key()
                        + " starts nothing before "
                        + until
                        + (shifted > 0
                            ? ", its parked tasks moved " + Duration.ofNanos(shifted) + " later"
                            : "")));
    String error =
        "the upstream asked to slow down: retry after " + wait + " (" + upstream.getMessage() + ")";
    return new AttemptOutcome(
        claimed.id(),
        claimed,
        claimed
            .withStatus(TaskStatus.QUEUED)
            .withAttempt(claimed.attempt() - 1)
            .withScheduledAt(due)
            .withLastError(error),
        end,
        null,
        new FollowUp(claimed.queue(), due));
  }
}
