package io.taskgate.api;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * What a handler knows about the task it is running.
 *
 * @param taskId the stored task's id
 * @param taskType the task type's name (its class name)
 * @param queue the queue it runs on
 * @param taskKey the dispatch key, if any
 * @param attempt this attempt, from 1
 * @param maxAttempts the most attempts the retry policy allows
 * @param scheduledAt when this attempt was due
 * @param runs real executions so far, for a recurring task (0 for a one-shot)
 * @param throttledUntil the rate-limit slot this attempt was parked until, if its key had no budget
 *     when it came due (empty when it ran at once)
 */
public record TaskContext(
    UUID taskId,
    String taskType,
    String queue,
    Optional<String> taskKey,
    int attempt,
    int maxAttempts,
    Instant scheduledAt,
    long runs,
    Optional<Instant> throttledUntil) {

  /** Whether this attempt is the last the retry policy allows. */
  public boolean lastAttempt() {
    return attempt >= maxAttempts;
  }
}
