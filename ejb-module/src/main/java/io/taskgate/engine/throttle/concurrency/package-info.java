/**
 * The concurrency limit on tasks ({@link io.taskgate.api.Concurrency}): at most N tasks of one key
 * running at once. It plugs in only through the door ({@link io.taskgate.engine.throttle}): {@link
 * io.taskgate.engine.throttle.concurrency.ConcurrencyProvider} registers a {@code
 * ConcurrencyThrottle} per task type that declares a limit, keeps the places in a {@link
 * io.taskgate.core.throttle.ThrottlerState} (the data grid's in a cluster) and lists its rows for
 * the views; {@code ConcurrencyExtension} fails the deployment of a handler whose limit is invalid.
 */
package io.taskgate.engine.throttle.concurrency;
