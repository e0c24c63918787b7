/**
 * The throttle seam: {@link io.taskgate.engine.throttle.Throttle}, what a throttle answers ({@link
 * io.taskgate.engine.throttle.ThrottleDecision}), and how several compose on one task, all or
 * nothing and in a fixed order ({@link io.taskgate.engine.throttle.ThrottleChain}), their permits
 * given back exactly once ({@link io.taskgate.engine.throttle.Permits}), and the tasks waiting for
 * a resource ({@link io.taskgate.engine.throttle.ResourceWaiters}). The views read the throttles'
 * state through read models here, never through a throttle's parts: {@link
 * io.taskgate.engine.throttle.RateLimitReads} (parked tasks, policies, pacing, push-backs) and
 * {@link io.taskgate.engine.throttle.ThrottlerWaits}. Implementations live beside the engine (the
 * keyed rate-limit gate, {@code io.taskgate.engine.throttle.gate.RateLimitGate}); this package
 * depends on the API, the store's task record and the handler description only.
 */
package io.taskgate.engine.throttle;
