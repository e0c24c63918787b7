package io.taskgate.engine.throttle;

import java.time.Instant;

/**
 * A rate-limited key's budget carried over a restart.
 *
 * @param at when it was restored (the start)
 * @param until when the key's budget is whole again: it counts from the restored budget until then
 * @param unsaved whether the key may have started after its last save (its instance was killed, or
 *     its last save failed): it then waits one interval from the restart, with no burst
 */
public record Restored(Instant at, Instant until, boolean unsaved) {}
