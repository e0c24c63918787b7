package io.taskgate.engine.cluster.grid;

import java.time.Duration;
import java.util.List;

/**
 * What the grid limiter reports about the grid.
 *
 * @param degraded whether calls are decided locally now
 * @param degradedSinceEpochNanos when the current degraded mode began; 0 when not degraded
 * @param degradations how many times the grid stopped answering
 * @param fallbackDecisions decisions taken locally, in all
 * @param share the N of the current or last degraded mode (each key at 1/N of its rate)
 * @param budget how long a call waits for the grid
 * @param outside the live instances sharing the database that are not in this grid (empty: none)
 */
public record GridStatus(
    boolean degraded,
    long degradedSinceEpochNanos,
    long degradations,
    long fallbackDecisions,
    int share,
    Duration budget,
    List<String> outside) {}
