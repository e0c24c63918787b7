package io.taskgate.engine.cluster.grid;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.GcraCell;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Checks each gated start, at the last moment, against the starts of its key on every instance of
 * the grid ({@link GcraCell#tryStart}, in the key's cell): the grid's slots conform to the policy,
 * but a task that starts late (a paused instance, a slow claim, a reservation decided without the
 * grid) and an on-time one after it would come closer together than the policy allows; checked
 * here, the later one waits instead. A start counted stays pending until its handler is entered
 * (told without waiting), and no other start of the key begins meanwhile: the moment a start really
 * begins is known only then, and counting it earlier let a start that reached its handler late, on
 * a loaded machine, meet another instance's on-time one. Thread-safe.
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

  /**
   * How long a start checked and not yet begun keeps the key's other starts waiting at most: a
   * start whose handler is never entered (its instance died between the two) holds the key up this
   * long.
   */
  static final long LEASE_NANOS = 2_000_000_000L;

  /** How long a start that finds another pending waits before asking again. */
  static final long PENDING_RETRY_NANOS = 2_000_000;

  private final GridCells cells;
  private final BooleanSupplier degraded;
  private final long missRetryNanos;

  /** The keys' cells, for reads beside the starts' own. */
  GridCells cells() {
    return cells;
  }

  GridStarts(GridCells cells, BooleanSupplier degraded, long missRetryNanos) {
    this.cells = cells;
    this.degraded = degraded;
    this.missRetryNanos = Math.max(1, missRetryNanos);
  }

  /**
   * A gated task of {@code key} is about to start at {@code nowEpochNanos}: 0 if its start keeps
   * the policy over the starts counted on every instance (it is counted, and pending until {@link
   * #begun} with the same {@code token}), else how many nanoseconds to wait before asking again
   * (the grid timeout, when the grid did not answer in time); {@link #UNCHECKED} while the limiter
   * is degraded (only the grid's slots space the key's starts then). A start asking again with the
   * mark of a check that landed after all is let through. A check the grid misses does not count
   * towards the degraded mode: the reservations decide the budgets.
   */
  public long tryStart(
      String scope, String key, RateLimitPolicy policy, long nowEpochNanos, long token) {
    return tryStart(scope, key, policy, nowEpochNanos, token, 1);
  }

  /** {@link #tryStart(String, String, RateLimitPolicy, long, long)} of {@code cost} units. */
  public long tryStart(
      String scope, String key, RateLimitPolicy policy, long nowEpochNanos, long token, int cost) {
    if (degraded.getAsBoolean()) {
      return UNCHECKED;
    }
    GcraCell.Rules rules = GcraCell.Rules.of(policy);
    try {
      return cells.update(
          GridCells.cellKey(scope, key),
          cell ->
              cell.tryStart(
                  rules,
                  nowEpochNanos,
                  JITTER_NANOS,
                  token,
                  LEASE_NANOS,
                  PENDING_RETRY_NANOS,
                  cost));
    } catch (GridUnavailable e) {
      // asked again after the budget, with the same mark (the change may still land meanwhile);
      // not counted towards the degraded mode: the reservations decide the budgets
      LOG.log(Level.FINE, "Taskgate could not check a start in the data grid", e);
      return missRetryNanos;
    }
  }

  /**
   * The start counted by {@link #tryStart} with {@code token} reached its handler at {@code
   * atEpochNanos} ({@link GcraCell#begun}), told without waiting: the handler starts at once, and
   * the key's other starts wait until this lands (or the start's lease lapses). The answer
   * completes when it has landed.
   */
  public CompletableFuture<?> begun(
      String scope, String key, RateLimitPolicy policy, long token, long atEpochNanos) {
    return begun(scope, key, policy, token, atEpochNanos, 1);
  }

  /** {@link #begun(String, String, RateLimitPolicy, long, long)} of {@code cost} units. */
  public CompletableFuture<?> begun(
      String scope, String key, RateLimitPolicy policy, long token, long atEpochNanos, int cost) {
    GcraCell.Rules rules = GcraCell.Rules.of(policy);
    return cells.updateLater(
        GridCells.cellKey(scope, key),
        cell -> {
          cell.begun(rules, token, atEpochNanos, cost);
          return null;
        });
  }
}
