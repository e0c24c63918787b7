package io.taskgate.store;

import io.taskgate.api.TaskStatus;
import java.time.Instant;
import java.util.UUID;

/**
 * One status change of a task.
 *
 * @param taskId the task
 * @param from the status before, null for the insert
 * @param to the status after
 * @param at when
 * @param attempt the attempt count after the change
 * @param detail the error or reason, or null
 */
public record TaskAudit(
    UUID taskId, TaskStatus from, TaskStatus to, Instant at, int attempt, String detail) {}
