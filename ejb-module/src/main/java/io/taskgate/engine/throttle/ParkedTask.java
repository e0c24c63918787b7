package io.taskgate.engine.throttle;

import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.store.StoredTask;
import java.time.Instant;

/**
 * A task parked until its rate-limit slot.
 *
 * @param scope the budgets of its type
 * @param key its throttling key
 * @param slot when it may run
 * @param task the task as stored when it was parked (or given a new payload since), so that
 *     redeeming it needs no read; a hint only, since the claim is a compare-and-set
 */
public record ParkedTask(RateLimitScope scope, String key, Instant slot, StoredTask task) {}
