package io.taskgate.engine.run;

import io.taskgate.store.StoredTask;
import java.time.Instant;
import java.util.UUID;

/**
 * What an attempt (or a delivery that did not become one) ends in: a write ({@code expected} →
 * {@code changed}, or none when {@code expected} is null), what to do once it is stored, and what
 * the scheduler does with the task afterwards ({@code next}, null: nothing).
 */
record AttemptOutcome(
    UUID taskId,
    StoredTask expected,
    StoredTask changed,
    Instant at,
    Runnable afterStored,
    FollowUp next) {

  /** Nothing to write; the scheduler does {@code next} (null: lets the task go). */
  static AttemptOutcome nothing(UUID taskId, Instant at, FollowUp next) {
    return new AttemptOutcome(taskId, null, null, at, null, next);
  }

  boolean writes() {
    return expected != null;
  }
}
