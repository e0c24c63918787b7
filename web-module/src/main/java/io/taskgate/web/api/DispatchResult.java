package io.taskgate.web.api;

import java.time.Instant;
import java.util.UUID;

/**
 * What {@code POST /api/tasks/{type}} answers.
 *
 * @param id the task's id (the existing task's when {@code replaced})
 * @param scheduledAt when it is due
 * @param replaced whether a queued task with the same task key got the new payload instead
 */
public record DispatchResult(UUID id, Instant scheduledAt, boolean replaced) {}
