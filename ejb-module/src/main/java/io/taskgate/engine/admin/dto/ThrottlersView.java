package io.taskgate.engine.admin.dto;

import java.util.List;

/**
 * The job throttlers: each throttler, each task type's use of them, and the latest changes.
 *
 * @param throttlers the throttlers, by kind then id
 * @param throttling how each task type uses them
 * @param rateLimits the rate limits changed at run time
 * @param changes the latest definition changes, newest first
 */
public record ThrottlersView(
    List<ThrottlerView> throttlers,
    List<ThrottlingView> throttling,
    List<RateLimitOverrideView> rateLimits,
    List<ThrottlerChangeView> changes) {}
