/**
 * Rate and concurrency limiter algorithms behind one {@link io.taskgate.core.limiter.RateLimiter}
 * contract: concurrency, token bucket, fixed / sliding window, GCRA, strict sliding log, plus
 * partitioned and chained compositions. Pure Java: the time is a {@code long nowNanos} argument,
 * thread safety comes from compare-and-set over immutable state, and nothing here may depend on
 * {@code jakarta.*}, clocks, threads, executors or locks.
 */
package io.taskgate.core.limiter;
