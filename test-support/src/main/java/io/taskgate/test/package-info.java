/**
 * Taskgate in an application's unit tests: {@link io.taskgate.test.ManualTaskgate} runs the
 * application's handlers in the test's thread at a clock the test moves, with the server's
 * throttling, rate-limit and retry rules, and records every attempt as a {@link
 * io.taskgate.test.Run}.
 */
package io.taskgate.test;
