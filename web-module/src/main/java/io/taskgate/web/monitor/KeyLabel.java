package io.taskgate.web.monitor;

/**
 * A key that has per-key metrics, and the value of their {@code key} tag.
 *
 * @param taskType the task type (the {@code type} tag)
 * @param key the rate-limit key
 * @param label the {@code key} tag: a keyed hash of the key, or the key itself
 */
public record KeyLabel(String taskType, String key, String label) {}
