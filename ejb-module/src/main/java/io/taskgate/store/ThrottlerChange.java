package io.taskgate.store;

import io.taskgate.api.ThrottlerKind;
import java.time.Instant;

/**
 * One audited change of a throttler's definition.
 *
 * @param at when
 * @param by who (the user name, or {@code application} for code calling the manager)
 * @param kind the kind of throttler
 * @param id its id
 * @param before the definition before ({@link ThrottlerRecord#describe}), null if it was added
 * @param after the definition after, null if it was removed
 */
public record ThrottlerChange(
    Instant at, String by, ThrottlerKind kind, String id, String before, String after) {}
