package io.taskgate.engine.admin.dto;

import java.time.Instant;

/**
 * One audited change of a throttler definition.
 *
 * @param at when
 * @param by who
 * @param kind the kind of throttler
 * @param id its id
 * @param before its definition before; null if it was added
 * @param after its definition after; null if it was removed
 */
public record ThrottlerChangeView(
    Instant at, String by, String kind, String id, String before, String after) {}
