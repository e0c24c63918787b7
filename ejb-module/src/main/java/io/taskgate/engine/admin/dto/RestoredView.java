package io.taskgate.engine.admin.dto;

import java.time.Instant;

/**
 * A key's budget carried over the last restart, shown until it is whole again.
 *
 * @param at when it was restored
 * @param until when the key's budget is whole again
 * @param unsaved whether the key may have started after its last save before the restart, and so
 *     waited one interval from it with no burst
 */
public record RestoredView(Instant at, Instant until, boolean unsaved) {}
