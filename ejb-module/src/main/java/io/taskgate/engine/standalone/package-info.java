/**
 * The engine in one thread at a clock the caller moves, for tests of an application's handlers
 * without a server ({@code io.taskgate:taskgate-test} is built on it): {@link
 * io.taskgate.engine.standalone.StandaloneEngine}. It reads the handlers as deployment does, passes
 * their tasks through the server's job throttlers and concurrency limits ({@code JobGate}, the
 * composition root of those kinds here, as the container is in the server), keys and paces them
 * with the same keyed limiter as the server's local mode ({@code RateGate}), and decides retries
 * and occurrences with the same core.
 */
package io.taskgate.engine.standalone;
