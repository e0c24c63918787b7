package io.taskgate.api;

import java.time.Instant;
import java.util.UUID;

/**
 * What a dispatch did.
 *
 * @param taskId the stored task's id (the existing task's when {@code replaced})
 * @param scheduledAt when it is due
 * @param replaced whether a live task with the same task key got the new payload instead
 */
public record TaskReceipt(UUID taskId, Instant scheduledAt, boolean replaced) {}
