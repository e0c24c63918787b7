/**
 * The job throttlers: mutexes, semaphores, fixed, sliding and dynamic windows ({@link
 * io.taskgate.engine.throttle.jobs.FamilyThrottle}), their state ({@link
 * io.taskgate.core.throttle.ThrottlerState}, in memory or on the data grid), their definitions and
 * the manager that changes them ({@link io.taskgate.engine.throttle.jobs.JobThrottlers}, {@link
 * io.taskgate.engine.throttle.jobs.DefaultThrottlingManager}), registered with the door by {@link
 * io.taskgate.engine.throttle.jobs.JobThrottleProvider}. Depends on the throttle door, the core's
 * throttler state, the keyed budgets' run-time policies, the method limits, the handler
 * descriptions and the store; never on another kind of throttle.
 */
package io.taskgate.engine.throttle.jobs;
