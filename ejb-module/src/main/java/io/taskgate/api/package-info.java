/**
 * What applications write against: tasks (records implementing {@link io.taskgate.api.Task}),
 * handlers (CDI beans marked {@link io.taskgate.api.TaskHandler}), the {@link
 * io.taskgate.api.TaskDispatcher}, rate limiting ({@link io.taskgate.api.RateLimit}, {@link
 * io.taskgate.api.RateLimitedTask}) and its monitoring events, and the values they exchange.
 * Depends on the Jakarta EE API and the core's values (recurrences, retry backoff, rate-limit
 * policies).
 */
package io.taskgate.api;
