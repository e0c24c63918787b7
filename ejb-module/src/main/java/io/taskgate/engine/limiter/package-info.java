/**
 * Waiting on top of the never-waiting limiters of {@code io.taskgate.core.limiter}: a bounded,
 * ordered queue of waiters that are retried at the limiter's retry-after on a handed-in scheduler,
 * with a handed-in clock. May use {@code java.util.concurrent} and locks; needs no {@code
 * jakarta.*}. All limiter math stays in the core.
 */
package io.taskgate.engine.limiter;
