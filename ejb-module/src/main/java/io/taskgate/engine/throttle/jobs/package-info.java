/**
 * The job throttlers: one class per kind ({@code MutexThrottle}, {@code SemaphoreThrottle}, held
 * while a task runs; {@code WindowThrottle} for fixed, sliding and dynamic windows), on the
 * decisions they share ({@code JobThrottle}) and picked by kind in one place ({@code
 * JobThrottleKinds}; what a kind is, {@link io.taskgate.core.throttle.JobKind}); their state
 * ({@link io.taskgate.core.throttle.ThrottlerState}, in memory or on the data grid), their cached
 * definitions ({@code JobDefinitions}), their stored window counts ({@code WindowCountLog}), their
 * global defaults ({@code JobThrottleSettings}) and the manager that changes the definitions
 * ({@link io.taskgate.engine.throttle.jobs.JobThrottlers}, {@link
 * io.taskgate.engine.throttle.jobs.DefaultThrottlingManager}), registered with the door by {@link
 * io.taskgate.engine.throttle.jobs.JobThrottleProvider}. Depends on the throttle door, the core's
 * throttler state, the keyed budgets' run-time policies, the method limits, the handler
 * descriptions and the store; never on another kind of throttle.
 */
package io.taskgate.engine.throttle.jobs;
