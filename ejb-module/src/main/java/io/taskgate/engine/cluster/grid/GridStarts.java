package io.taskgate.engine.cluster.grid;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.GcraCell;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Checks each gated start, at the last moment, against the starts of its key on every instance of
 * the grid ({@link GcraCell#tryStart}, in the key's cell): the grid's slots conform to the policy,
 * but a task that starts late (a paused instance, a slow claim, a reservation decided without the
 * grid) and an on-time one after it would come closer together than the policy allows; checked
 * here, the later one waits instead. Thread-safe.
 */
public final class GridStarts {
  private static final Logger LOG = Logger.getLogger(GridStarts.class.getName());

  /** {@link #tryStart}'s answer when the grid could not check the start. */
  public static final long UNCHECKED = -1;

  /**
   * A timer that brings a task back at its slot fires by the monotonic clock and the check reads
   * the wall clock: a start this much earlier than the starts' chain allows still conforms.
   */
  static final long JITTER_NANOS = 1_000_000;

  private final GridCells cells;
  private final BooleanSupplier degraded;

  GridStarts(GridCells cells, BooleanSupplier degraded) {
    this.cells = cells;
    this.degraded = degraded;
  }

  /**
   * A gated task of {@code key} is about to start at {@code nowEpochNanos}: 0 if its start keeps
   * the policy over the starts counted on every instance (it is counted), else how many nanoseconds
   * to wait before asking again; {@link #UNCHECKED} while the limiter is degraded or when the grid
   * does not answer in time (only the grid's slots space the key's starts then). A check the grid
   * misses does not count towards the degraded mode: the reservations decide the budgets.
   */
  public long tryStart(String scope, String key, RateLimitPolicy policy, long nowEpochNanos) {
    if (degraded.getAsBoolean()) {
      return UNCHECKED;
    }
    GcraCell.Rules rules = GcraCell.Rules.of(policy);
    try {
      return cells.update(
          GridKeys.cellKey(scope, key), cell -> cell.tryStart(rules, nowEpochNanos, JITTER_NANOS));
    } catch (GridUnavailable e) {
      // not counted towards the degraded mode: the budgets are decided by the reservations
      LOG.log(Level.FINE, "Taskgate could not check a start in the data grid", e);
      return UNCHECKED;
    }
  }

  /**
   * A start counted by {@link #tryStart} reached its handler only at {@code atEpochNanos}: the
   * starts' chain moves on from then ({@link GcraCell#startedAt}). Best effort: a grid that does
   * not answer leaves the chain as counted.
   */
  public void startedAt(String scope, String key, RateLimitPolicy policy, long atEpochNanos) {
    if (degraded.getAsBoolean()) {
      return;
    }
    GcraCell.Rules rules = GcraCell.Rules.of(policy);
    try {
      cells.update(
          GridKeys.cellKey(scope, key),
          cell -> {
            cell.startedAt(rules, atEpochNanos);
            return null;
          });
    } catch (GridUnavailable e) {
      LOG.log(Level.FINE, "Taskgate could not count a late start in the data grid", e);
    }
  }
}
