package io.taskgate.web.api;

import java.time.Instant;
import java.util.UUID;

/**
 * What {@code POST /api/tasks/{type}} answers.
 *
 * @param id the task's id (the existing task's when {@code replaced} or {@code duplicate})
 * @param scheduledAt when it is due
 * @param replaced whether a queued task with the same task key got the new payload instead
 * @param estimatedStart when it should start: later than {@code scheduledAt} when its rate-limit
 *     key has no budget (then the response also carries {@code Retry-After})
 * @param duplicate whether a task with the same unique key existed: nothing was stored ({@code id}
 *     names it; {@code replaced} says whether it got the new payload)
 */
public record DispatchResult(
    UUID id, Instant scheduledAt, boolean replaced, Instant estimatedStart, boolean duplicate) {}
