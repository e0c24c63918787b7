/**
 * Keyed rate limiting of tasks with the generic cell rate algorithm (GCRA): policies, decisions,
 * the {@link io.taskgate.core.ratelimit.KeyedRateLimiter} contract and its single-threaded
 * in-memory shard. Pure Java; depends on nothing outside the JDK.
 */
package io.taskgate.core.ratelimit;
