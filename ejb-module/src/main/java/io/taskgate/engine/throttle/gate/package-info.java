/**
 * The keyed rate-limit gate, the first {@link io.taskgate.engine.throttle.Throttle}: {@link
 * io.taskgate.engine.throttle.gate.RateLimitGate} asks the keyed limiter, which {@link
 * io.taskgate.engine.throttle.gate.RateLimiterBean} hosts ({@link
 * io.taskgate.engine.throttle.gate.InMemoryKeyedRateLimiter}: thread-safe shards around the core's
 * single-threaded GCRA), parks tasks in the {@link io.taskgate.engine.throttle.gate.ParkingLot},
 * decides for the moment a task starts ({@link io.taskgate.engine.throttle.gate.StartLead}) and
 * keeps starts apart after a late one ({@link io.taskgate.engine.throttle.gate.StartSpacingGuard});
 * its settings ({@link io.taskgate.engine.throttle.gate.GateSettings}), tuned constants ({@link
 * io.taskgate.engine.throttle.gate.GateTuning}), key selection, events, pacing log and the notes of
 * parked tasks in their audit ({@link io.taskgate.engine.throttle.gate.ParkingNotes}). Depends on
 * the throttle SPI, the core, the store, the engine's time, handler, schedule and event packages,
 * the Jakarta EE API and the JDK.
 */
package io.taskgate.engine.throttle.gate;
