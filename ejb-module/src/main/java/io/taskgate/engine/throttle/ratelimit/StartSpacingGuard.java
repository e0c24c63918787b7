package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.StartSpacing;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.cluster.grid.GridState;
import io.taskgate.engine.throttle.StartCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps a rate-limited key's starts apart by its policy's spacing when an earlier start of the key
 * was late ({@link StartSpacing}): a claimed task that would start too close to the key's last
 * start waits on the timeline instead, holding no worker, and is checked again then.
 *
 * <p>The check and the start are one step for the key's other starts: a start window, a lock by
 * hash of (scope, key), is held by the worker from its check until its handler is entered (a {@link
 * io.taskgate.engine.handler.HandlerEntry} hook, run right before the handler's own code), where
 * the start is counted again ({@link #startedNow}, which only ever moves it later). A worker
 * stalled between the check and the handler (descheduled, or on code that runs for the first time:
 * the pacing benchmark saw 4–5 ms) keeps the key's other starts waiting instead of letting them
 * start too close to its own, late one. Another key waits on a window only if it shares the stripe
 * and the holder is descheduled right then.
 *
 * <p>With the budgets in the data grid ({@code taskgate.rate-limit.limiter=grid}) the check is the
 * grid's ({@link GridState#tryStart}): the key's cell keeps the chain of its starts on every
 * instance, so that a start late on one instance holds the next ones back on all of them (this
 * instance's starts alone would not do: holding them after a late one made them later still, among
 * the other instances' on-time starts). A start checked there is pending until its handler is
 * entered ({@link #entered}), and no other start of the key begins meanwhile on any instance. While
 * the grid does not answer, only its slots space the key's starts.
 */
@ApplicationScoped
public class StartSpacingGuard {
  /**
   * A start held back is redeemed this much after it conforms ({@link GateTuning#spacingSlack}).
   */
  private static final long SLACK_NANOS = GateTuning.DEFAULT.spacingSlack().toNanos();

  private final GateSettings gateSettings;
  private final GridState grid;

  private volatile StartSpacing spacing; // made on first use, from the gate's settings

  private final AtomicLong spacedStarts = new AtomicLong();

  /** The grid's mark of the start this thread checked last, until its handler is entered. */
  private final ThreadLocal<long[]> pendingToken = ThreadLocal.withInitial(() -> new long[1]);

  private final ReentrantLock[] startWindows = newLocks(256);

  /** For the CDI proxy. */
  protected StartSpacingGuard() {
    this(null, null);
  }

  /**
   * Local spacing sized by {@code gateSettings}; starts checked in {@code grid} when the budgets
   * are there (null: never, as in tests outside the container).
   */
  @Inject
  StartSpacingGuard(GateSettings gateSettings, GridState grid) {
    this.gateSettings = gateSettings;
    this.grid = grid;
  }

  /**
   * When a claimed task of the key may start, if not now: null to start now, otherwise until when
   * it waits on the timeline, and its place in the key's line (counted in {@link #spacedStarts}).
   * {@code previous}: null, or what this answered for the task last time it was held back; {@code
   * taskId} marks its start while it is pending in the grid.
   */
  public StartCheck.Hold holdUntil(
      String scope,
      String key,
      RateLimitPolicy policy,
      Instant now,
      StartCheck.Hold previous,
      UUID taskId) {
    return holdUntil(scope, key, policy, now, previous, taskId, 1);
  }

  /** {@link #holdUntil} of a start that spends {@code cost} units of the key's budget. */
  public StartCheck.Hold holdUntil(
      String scope,
      String key,
      RateLimitPolicy policy,
      Instant now,
      StartCheck.Hold previous,
      UUID taskId,
      int cost) {
    long nowNanos = EpochNanos.of(now);
    long until;
    long place;
    if (budgetsInTheGrid()) {
      long token = (taskId.getMostSignificantBits() ^ taskId.getLeastSignificantBits()) | 1;
      long wait = grid.tryStart(scope, key, policy, nowNanos, token, cost);
      pendingToken.get()[0] = wait == 0 ? token : 0;
      if (wait <= 0) {
        return null; // unchecked: the grid's slots alone space it
      }
      until = nowNanos + wait;
      place = until;
    } else {
      StartSpacing.Hold hold =
          spacing()
              .hold(
                  scope,
                  key,
                  policy,
                  nowNanos,
                  previous == null
                      ? null
                      : new StartSpacing.Hold(
                          EpochNanos.of(previous.until()) - SLACK_NANOS, previous.place()),
                  cost);
      if (hold == null) {
        return null;
      }
      until = hold.until();
      place = hold.place();
    }
    spacedStarts.incrementAndGet();
    return new StartCheck.Hold(now.plusNanos(until - nowNanos + SLACK_NANOS), place);
  }

  /**
   * The handler of a gated task is called now: its key's spacing counts the start from now if that
   * is later than when it was checked ({@link StartSpacing#started}).
   */
  public void startedNow(String scope, String key, RateLimitPolicy policy, Instant now) {
    startedNow(scope, key, policy, now, 1);
  }

  /** {@link #startedNow(String, String, RateLimitPolicy, Instant)} of {@code cost} units. */
  public void startedNow(String scope, String key, RateLimitPolicy policy, Instant now, int cost) {
    if (!budgetsInTheGrid()) {
      spacing().started(scope, key, policy, EpochNanos.of(now), cost);
    }
  }

  /**
   * The handler of a gated task this thread checked is entered now: locally as {@link #startedNow};
   * with the budgets in the grid, the start checked there is told when it began (it was pending
   * until then, holding the key's other starts on every instance), without waiting.
   */
  public void entered(String scope, String key, RateLimitPolicy policy, Instant now) {
    entered(scope, key, policy, now, 1);
  }

  /** {@link #entered(String, String, RateLimitPolicy, Instant)} of {@code cost} units. */
  public void entered(String scope, String key, RateLimitPolicy policy, Instant now, int cost) {
    if (!budgetsInTheGrid()) {
      spacing().started(scope, key, policy, EpochNanos.of(now), cost);
      return;
    }
    long[] pending = pendingToken.get();
    long token = pending[0];
    pending[0] = 0;
    if (token != 0) {
      grid.begun(scope, key, policy, token, EpochNanos.of(now), cost);
    }
  }

  /**
   * The theoretical arrival time of the key's starts on this instance, {@link Long#MIN_VALUE} for a
   * key it does not track (or when the budgets are in the grid, which keeps them).
   */
  long observed(String scope, String key) {
    return budgetsInTheGrid() ? Long.MIN_VALUE : spacing().observed(scope, key);
  }

  /** Carries the key's starts over a restart (locally; the grid's cell keeps its own). */
  void restore(String scope, String key, long floorEpochNanos) {
    if (!budgetsInTheGrid()) {
      spacing().restore(scope, key, floorEpochNanos);
    }
  }

  /** Whether the budgets, and the chains of the keys' starts, are in the data grid. */
  boolean inTheGrid() {
    return budgetsInTheGrid();
  }

  /** The margin the spacing keeps for this policy's starts, in nanoseconds. */
  long marginNanos(RateLimitPolicy policy) {
    return spacing().marginNanos(policy);
  }

  /** The start window of the key: held from its spacing check until its handler is entered. */
  public ReentrantLock startWindow(String scope, String key) {
    int hash = 31 * scope.hashCode() + key.hashCode();
    return startWindows[(hash ^ (hash >>> 16)) & (startWindows.length - 1)];
  }

  /** Starts held back so far to keep a key's spacing after a late start. */
  public long spacedStarts() {
    return spacedStarts.get();
  }

  private boolean budgetsInTheGrid() {
    return grid != null && grid.settings().grid();
  }

  private StartSpacing spacing() {
    StartSpacing current = spacing;
    if (current == null) {
      synchronized (this) {
        current = spacing;
        if (current == null) {
          current =
              new StartSpacing(gateSettings.maxTrackedKeys(), StartSpacing.DEFAULT_MARGIN_NANOS);
          spacing = current;
        }
      }
    }
    return current;
  }

  private static ReentrantLock[] newLocks(int count) {
    ReentrantLock[] locks = new ReentrantLock[count];
    for (int i = 0; i < count; i++) {
      locks[i] = new ReentrantLock();
    }
    return locks;
  }
}
