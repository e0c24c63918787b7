package io.taskgate.api;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * CDI event: a task moved from one status to another, fired once the move is stored (for a task
 * stored inside the caller's own transaction: once written, before that transaction commits).
 * Observe it with {@code @Observes TaskTransition}; observers run on the thread that stored the
 * move, so keep them quick. When nothing observes it, it is not even built.
 *
 * @param taskId the task
 * @param taskType the task type's name
 * @param queue the task's queue
 * @param from the status before; null when the task was stored
 * @param to the status after
 * @param at when the move was stored
 * @param attempt the task's attempt count after the move
 * @param detail the task's last error after the move, or null
 * @param elapsed for a move out of IN_PROGRESS, how long the attempt ran (from its claim); for
 *     QUEUED → IN_PROGRESS, how long the task waited after it was due; otherwise null
 */
public record TaskTransition(
    UUID taskId,
    String taskType,
    String queue,
    TaskStatus from,
    TaskStatus to,
    Instant at,
    int attempt,
    String detail,
    Duration elapsed) {}
