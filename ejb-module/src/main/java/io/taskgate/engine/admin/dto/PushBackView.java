package io.taskgate.engine.admin.dto;

import java.time.Instant;

/**
 * A key's last upstream push-back on the answering instance.
 *
 * @param at when the upstream said "slow down"
 * @param until before when nothing of the key starts
 * @param reason what the upstream said (user data: escape it when rendering)
 */
public record PushBackView(Instant at, Instant until, String reason) {}
