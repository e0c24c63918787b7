package io.taskgate.engine.throttle;

import java.time.Instant;

/**
 * An upstream's push-back of a rate-limited key.
 *
 * @param at when the upstream said "slow down"
 * @param until before when nothing of the key starts
 * @param reason what the upstream said (user data: escape it when rendering)
 */
public record PushBack(Instant at, Instant until, String reason) {}
