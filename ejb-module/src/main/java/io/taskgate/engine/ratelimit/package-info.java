/**
 * Thread-safe keyed rate limiters built on the core's single-threaded GCRA shards, and the
 * singleton EJB that hosts the application's limiter. Depends on {@code
 * io.taskgate.core.ratelimit}, the engine's settings, the Jakarta EE API and the JDK.
 */
package io.taskgate.engine.ratelimit;
