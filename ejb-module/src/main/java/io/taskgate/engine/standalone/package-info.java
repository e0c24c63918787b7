/**
 * The engine in one thread at a clock the caller moves, for tests of an application's handlers
 * without a server ({@code io.taskgate:taskgate-test} is built on it): {@link
 * io.taskgate.engine.standalone.StandaloneEngine}. It reads the handlers as deployment does, keys
 * and paces their tasks with the same keyed limiter as the server's local mode, and decides retries
 * and occurrences with the same core.
 */
package io.taskgate.engine.standalone;
