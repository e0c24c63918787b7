/**
 * The keyed rate-limit gate, a kind of {@link io.taskgate.engine.throttle.Throttle} registered with
 * the door by {@link io.taskgate.engine.throttle.ratelimit.RateLimitProvider}: {@link
 * io.taskgate.engine.throttle.ratelimit.RateLimitGate} asks the application's keyed limiter ({@code
 * engine.budget}), parks tasks in the {@link io.taskgate.engine.throttle.ratelimit.ParkingLot},
 * decides for the moment a task starts ({@link io.taskgate.engine.throttle.ratelimit.StartLead}),
 * checks each start at the last moment ({@link io.taskgate.engine.throttle.ratelimit.KeyStarts}:
 * the start window and {@link io.taskgate.engine.throttle.ratelimit.StartSpacingGuard}, which keeps
 * starts apart after a late one), moves a key's schedule on an upstream's push-back ({@link
 * io.taskgate.engine.throttle.ratelimit.KeyPushBacks}); its tuned constants ({@link
 * io.taskgate.engine.throttle.ratelimit.GateTuning}), key selection, events, pacing log and the
 * notes of parked tasks in their audit ({@link
 * io.taskgate.engine.throttle.ratelimit.ParkingNotes}). Depends on the throttle door, the keyed
 * budgets, the core, the store, the engine's time, handler, schedule, queue, cluster and event
 * packages, the Jakarta EE API and the JDK; never on another kind of throttle.
 */
package io.taskgate.engine.throttle.ratelimit;
