package io.taskgate.engine.admin.dto;

import java.time.Instant;

/**
 * One (task type, key) of the limiter.
 *
 * @param taskType the task type's full class name (the budget's scope)
 * @param key the key as the limiter tracks it (user data: escape it when rendering)
 * @param throttled whether a new task of the key would wait now, or tasks of it are parked
 * @param parkedCount tasks of the key parked until their slot, on this instance and on its live
 *     peers (as of their last heartbeats)
 * @param nextSlot the slot a new task of the key would get; null when it has budget now
 * @param parkedUntil the latest slot a parked task of the key waits for; null when none is parked
 * @param availablePermits tasks of the key that could start at once
 * @param policy the key's policy (its task type's)
 * @param pushBack the key's last upstream push-back on this instance within the last hour; null if
 *     none
 * @param restored how the key's budget was carried over this instance's last restart, while it is
 *     not whole again; null otherwise
 */
public record RateLimitRow(
    String taskType,
    String key,
    boolean throttled,
    int parkedCount,
    Instant nextSlot,
    Instant parkedUntil,
    int availablePermits,
    PolicyView policy,
    PushBackView pushBack,
    RestoredView restored) {}
