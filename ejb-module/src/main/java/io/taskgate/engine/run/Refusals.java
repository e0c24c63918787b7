package io.taskgate.engine.run;

import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.TaskThrottledException;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerInvoker;
import io.taskgate.engine.throttle.ResourceWaiters;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;

/**
 * What becomes of a task its throttles did not let run now ({@link ThrottleDecision}): it waits on
 * the timeline or on its queue, holding no worker, waits for a resource to be released, or ends
 * (dropped, rejected, an occurrence skipped).
 */
@ApplicationScoped
class Refusals {
  private final Throttles throttles;
  private final HandlerInvoker invoker;

  /** For the CDI proxy. */
  protected Refusals() {
    this(null, null);
  }

  @Inject
  Refusals(Throttles throttles, HandlerInvoker invoker) {
    this.throttles = throttles;
    this.invoker = invoker;
  }

  /**
   * What happens to a task a throttle did not let run now: parked until a slot, held on its queue,
   * waiting for a resource, an occurrence skipped, or rejected (a one-shot task FAILS, its {@code
   * onError} told; a recurring one skips ahead to the slot).
   */
  AttemptOutcome instead(
      StoredTask queued,
      HandlerInfo handlerInfo,
      Task task,
      ThrottleDecision decision,
      long releasesSeen,
      Instant now) {
    if (decision instanceof ThrottleDecision.ParkUntil park) {
      return AttemptOutcome.nothing(
          queued.id(), now, new FollowUp(queued.queue(), park.until(), true));
    }
    if (decision instanceof ThrottleDecision.RetryAt retry) {
      return AttemptOutcome.nothing(queued.id(), now, new FollowUp(queued.queue(), retry.at()));
    }
    if (decision instanceof ThrottleDecision.HoldOnQueue) {
      return AttemptOutcome.nothing(queued.id(), now, new FollowUp(queued.queue(), null));
    }
    if (decision instanceof ThrottleDecision.WaitForRelease wait) {
      boolean waits =
          throttles
              .waiters()
              .waitFor(
                  wait.resource(),
                  new ResourceWaiters.Waiter(queued.id(), queued.queue(), queued),
                  releasesSeen);
      // not waiting: a release came meanwhile, so it tries again at once; waiting: it looks again
      // by itself at the recheck time, if there is one, keeping its place in the line
      Instant next = waits ? wait.recheckAt() : now;
      return AttemptOutcome.nothing(
          queued.id(), now, next == null ? null : new FollowUp(queued.queue(), next));
    }
    if (decision instanceof ThrottleDecision.Drop drop) {
      TaskContext context = HandlerInvoker.context(queued, handlerInfo, null);
      TaskThrottledException cause = new TaskThrottledException(drop.throttle(), drop.reason());
      return Outcomes.ended(
          queued,
          TaskStatus.CANCELLED,
          drop.reason(),
          now,
          () ->
              invoker.withHandler(
                  queued, handlerInfo, "onError", h -> h.onError(task, context, cause)));
    }
    if (decision instanceof ThrottleDecision.SkipOccurrence skip) {
      return Outcomes.skipped(queued, skip.notBefore(), now, skip.reason());
    }
    ThrottleDecision.Reject reject = (ThrottleDecision.Reject) decision;
    if (queued.recurrence() != null) {
      return Outcomes.skipped(
          queued, reject.slot() == null ? now : reject.slot(), now, reject.reason());
    }
    TaskContext context = HandlerInvoker.context(queued, handlerInfo, null);
    return Outcomes.ended(
        queued,
        TaskStatus.FAILED,
        reject.reason(),
        now,
        () ->
            invoker.withHandler(
                queued, handlerInfo, "onError", h -> h.onError(task, context, reject.cause())));
  }
}
