package io.taskgate.engine.run;

import io.taskgate.api.TaskStatus;
import io.taskgate.api.UpstreamRateLimitException;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * A handler's upstream said "slow down" ({@link UpstreamRateLimitException}): the attempt does not
 * count and the task goes back to {@code QUEUED}; its throttles are told ({@link
 * io.taskgate.engine.throttle.Throttle#pushedBack}): for a rate-limited task the key's schedule
 * moves so that nothing of it starts before the upstream's retry-after, and the task comes back to
 * its gate at once, which parks it at the key's next slot; a task without a key waits the
 * retry-after itself.
 */
@ApplicationScoped
class UpstreamPushBack {
  private static final Logger LOG = Logger.getLogger(UpstreamPushBack.class.getName());

  AttemptOutcome pushedBack(
      StoredTask claimed, Claim claim, UpstreamRateLimitException upstream, Instant end) {
    Duration wait = upstream.retryAfter();
    Instant until = end.plus(wait);
    Instant due = claim.permits().pushedBack(claimed.id(), until, end, upstream.getMessage());
    LOG.info(
        () ->
            "Task "
                + claimed.id()
                + " ("
                + claimed.type()
                + "): its upstream asked to slow down for "
                + wait
                + (due.isBefore(until) ? "; it comes back to its throttles now" : ""));
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
