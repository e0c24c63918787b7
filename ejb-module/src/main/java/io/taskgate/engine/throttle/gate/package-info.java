/**
 * The keyed rate-limit gate, the first {@link io.taskgate.engine.throttle.Throttle}: {@link
 * io.taskgate.engine.throttle.gate.RateLimitGate} asks the keyed limiter, parks tasks in the {@link
 * io.taskgate.engine.throttle.gate.ParkingLot}, decides for the moment a task starts ({@link
 * io.taskgate.engine.throttle.gate.StartLead}) and keeps starts apart after a late one ({@link
 * io.taskgate.engine.throttle.gate.StartSpacingGuard}); its settings, key selection, events and
 * pacing log.
 */
package io.taskgate.engine.throttle.gate;
