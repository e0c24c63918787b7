/**
 * The one description of a limit: {@link io.taskgate.core.limit.Limit} (permits per period, burst),
 * checked once, derived values and display; and {@link io.taskgate.core.limit.LimitText}, which
 * reads one from named text options (annotations, MicroProfile Config, JSON fields). Pure Java; may
 * depend on the API's value types and {@code core.time}.
 */
package io.taskgate.core.limit;
