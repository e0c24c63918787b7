package io.taskgate.core.task;

import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a task does after an attempt, decided from values alone (no clock, no store, the random draw
 * for jitter passed in): the engine writes what these return.
 *
 * <ul>
 *   <li>{@link #completed}: a recurring task is queued at its next occurrence, a one-shot task or
 *       the end of a series is COMPLETED.
 *   <li>{@link #failed}: a retry after the policy's backoff while attempts are left; then like a
 *       completed attempt, but FAILED where the series ends or the task is one-shot.
 *   <li>{@link #skipped}: an occurrence passed over without running (rate-limit rejection, or its
 *       slot past the series' {@code runUntil}): the series goes on at its first occurrence after
 *       {@code notBefore}, not counting a run, or ends COMPLETED.
 * </ul>
 */
public final class AttemptOutcomes {
  private AttemptOutcomes() {}

  /** What follows an attempt. */
  public sealed interface Next {}

  /** Queued again at {@code due} after waiting {@code delay}: another attempt of the same run. */
  public record Retry(Instant due, Duration delay) implements Next {}

  /** Queued at the series' next occurrence {@code due}, with a fresh attempt count. */
  public record Occurrence(Instant due) implements Next {}

  /** The task ends in {@code status}. */
  public record Ended(TaskStatus status) implements Next {
    public Ended {
      if (!status.terminal()) {
        throw new IllegalArgumentException("not a final status: " + status);
      }
    }
  }

  /**
   * After an attempt that succeeded at {@code end}, the {@code runs}-th real execution of the task
   * ({@code recurrence} null for a one-shot task).
   */
  public static Next completed(Recurrence recurrence, Instant scheduledAt, Instant end, long runs) {
    return afterRun(recurrence, scheduledAt, end, runs, TaskStatus.COMPLETED);
  }

  /**
   * After attempt number {@code attempt} failed at {@code end}: a {@link Retry} while {@code retry}
   * allows one ({@code random}, in [0, 1), spreads its delay by the policy's jitter); otherwise the
   * run ends (it is then the {@code runsIfEnded}-th real execution) as for {@link #completed},
   * FAILED where that would be COMPLETED.
   */
  public static Next failed(
      RetryPolicy retry,
      int attempt,
      double random,
      Recurrence recurrence,
      Instant scheduledAt,
      Instant end,
      long runsIfEnded) {
    if (retry.retriesAfter(attempt)) {
      Duration delay = retry.delayAfter(attempt, random);
      return new Retry(end.plus(delay), delay);
    }
    return afterRun(recurrence, scheduledAt, end, runsIfEnded, TaskStatus.FAILED);
  }

  /**
   * An occurrence of a series passed over at {@code now} without running, not to come back before
   * {@code notBefore}, {@code runs} real executions so far: the first occurrence after that, or
   * COMPLETED when the series has none left.
   */
  public static Next skipped(
      Recurrence recurrence, Instant scheduledAt, Instant notBefore, Instant now, long runs) {
    Instant after = notBefore.isAfter(now) ? notBefore.minusNanos(1) : now;
    return Occurrences.next(recurrence, scheduledAt, after, runs)
        .<Next>map(Occurrence::new)
        .orElse(new Ended(TaskStatus.COMPLETED));
  }

  private static Next afterRun(
      Recurrence recurrence, Instant scheduledAt, Instant end, long runs, TaskStatus terminal) {
    Optional<Instant> next =
        recurrence == null
            ? Optional.empty()
            : Occurrences.next(recurrence, scheduledAt, end, runs);
    return next.<Next>map(Occurrence::new).orElse(new Ended(terminal));
  }
}
