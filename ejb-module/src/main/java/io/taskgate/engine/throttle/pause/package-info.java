/**
 * Pauses as a kind of throttle: {@link io.taskgate.engine.throttle.pause.Pauses} keeps the pauses
 * of queues, task types and rate-limit keys (stored, shared by the instances) and puts a {@code
 * PauseThrottle} first on every task type, so that a paused task waits, QUEUED and holding no
 * worker, until its pause ends. The rest of the engine reaches it through {@link
 * io.taskgate.engine.throttle.Pausing}.
 */
package io.taskgate.engine.throttle.pause;
