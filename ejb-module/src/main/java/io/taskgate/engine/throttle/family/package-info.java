/**
 * The job throttlers: mutexes, semaphores, fixed, sliding and dynamic windows ({@link
 * io.taskgate.engine.throttle.family.FamilyThrottle}), their state ({@link
 * io.taskgate.engine.throttle.ThrottlerState}, in memory or on the data grid), their definitions
 * and the manager that changes them ({@link io.taskgate.engine.throttle.family.JobThrottlers},
 * {@link io.taskgate.engine.throttle.family.DefaultThrottlingManager}). Depends on the throttle
 * seam, the core's throttler state, the handler descriptions and the store.
 */
package io.taskgate.engine.throttle.family;
