/**
 * Thread-safe keyed rate limiters built on the core's single-threaded GCRA shards. Depends on
 * {@code io.taskgate.core.ratelimit} and the JDK only.
 */
package io.taskgate.engine.ratelimit;
