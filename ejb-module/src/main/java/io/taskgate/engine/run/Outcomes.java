package io.taskgate.engine.run;

import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AttemptOutcomes;
import io.taskgate.core.task.AttemptOutcomes.Ended;
import io.taskgate.core.task.AttemptOutcomes.Next;
import io.taskgate.core.task.AttemptOutcomes.Occurrence;
import io.taskgate.core.task.AttemptOutcomes.Retry;
import io.taskgate.store.StoredTask;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * Turns the decisions of {@link AttemptOutcomes} into what is written: the task as it is to be
 * stored, and what the scheduler does with it afterwards.
 */
final class Outcomes {
  private static final Logger LOG = Logger.getLogger(Outcomes.class.getName());

  private Outcomes() {}

  /**
   * The end of a real execution ({@code next} from {@link AttemptOutcomes#completed} or {@link
   * AttemptOutcomes#failed}): a retry keeps the run count and records {@code error}; a next
   * occurrence is queued with a fresh attempt count and {@code error} as its last error; an end
   * keeps the last retry's error when {@code error} is null. {@code afterStored} runs once it is
   * stored.
   */
  static AttemptOutcome afterRun(
      StoredTask running, Next next, String error, Instant end, Runnable afterStored) {
    if (next instanceof Retry retry) {
      return new AttemptOutcome(
          running.id(),
          running,
          running.withStatus(TaskStatus.QUEUED).withScheduledAt(retry.due()).withLastError(error),
          end,
          afterStored,
          new FollowUp(running.queue(), retry.due()));
    }
    long runs = running.runs() + 1;
    if (next instanceof Occurrence occurrence) {
      return new AttemptOutcome(
          running.id(),
          running,
          running
              .withStatus(TaskStatus.QUEUED)
              .withScheduledAt(occurrence.due())
              .withAttempt(0)
              .withLastError(error)
              .withRuns(runs),
          end,
          afterStored,
          new FollowUp(running.queue(), occurrence.due()));
    }
    Ended ended = (Ended) next;
    return new AttemptOutcome(
        running.id(),
        running,
        running
            .withStatus(ended.status())
            .withLastError(error != null ? error : running.lastError())
            .withRuns(runs),
        end,
        afterStored,
        null);
  }

  /**
   * Skips a recurring task's occurrence without counting it as a run: the series goes on at its
   * first occurrence after {@code notBefore} (or ends, COMPLETED, when there is none), with {@code
   * reason} as its last error.
   */
  static AttemptOutcome skipped(StoredTask queued, Instant notBefore, Instant now, String reason) {
    Next next =
        AttemptOutcomes.skipped(
            Recurrence.decode(queued.recurrence()),
            queued.scheduledAt(),
            notBefore,
            now,
            queued.runs());
    if (next instanceof Occurrence occurrence) {
      return new AttemptOutcome(
          queued.id(),
          queued,
          queued.withScheduledAt(occurrence.due()).withAttempt(0).withLastError(reason),
          now,
          null,
          new FollowUp(queued.queue(), occurrence.due()));
    }
    return ended(queued, ((Ended) next).status(), reason, now, null);
  }

  /** The task ends in {@code status} with {@code error} as its last error. */
  static AttemptOutcome ended(
      StoredTask task, TaskStatus status, String error, Instant now, Runnable afterStored) {
    return new AttemptOutcome(
        task.id(), task, task.withStatus(status).withLastError(error), now, afterStored, null);
  }

  /** A task that cannot run here (no handler, unreadable payload) fails alone, with the reason. */
  static AttemptOutcome unrunnable(StoredTask queued, String reason, Instant now) {
    LOG.warning("Task " + queued.id() + " cannot run: " + reason);
    return ended(queued, TaskStatus.FAILED, reason, now, null);
  }
}
