package io.taskgate.engine.admin.dto;

import java.time.Duration;

/**
 * A task type's rate limit changed at run time, for the type or one key of it.
 *
 * @param taskType the task type
 * @param key the key; null for the whole type
 * @param permits executions per period
 * @param period the period
 * @param burst executions back to back
 */
public record RateLimitOverrideView(
    String taskType, String key, int permits, Duration period, int burst) {}
