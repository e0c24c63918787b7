/**
 * The keyed budgets both the task gate and the method limits use, owned by neither: the
 * application's {@link io.taskgate.core.ratelimit.KeyedRateLimiter}, hosted by {@link
 * io.taskgate.engine.budget.RateLimiterBean} in memory ({@link
 * io.taskgate.engine.budget.InMemoryKeyedRateLimiter}: thread-safe shards around the core's
 * single-threaded GCRA) or in the data grid, the rate limits changed at run time ({@link
 * io.taskgate.engine.budget.RatePolicies}) and the {@code taskgate.rate-limit.*} settings ({@link
 * io.taskgate.engine.budget.GateSettings}). Depends on the core, the store, the handler
 * descriptions, the queues' settings, the timer and the data grid; never on a throttle or a
 * limiter.
 */
package io.taskgate.engine.budget;
