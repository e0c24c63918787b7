package io.taskgate.engine.cluster.grid;

import com.hazelcast.map.IMap;
import io.taskgate.core.ratelimit.GcraCell;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A {@link KeyedRateLimiter} whose budgets live in the data grid, so that every instance of the
 * cluster spends one budget per key. Each key is one grid entry (a {@link GcraCell} as bytes),
 * changed by compare-and-set on its bytes, retried while another instance changed it in between, so
 * that the grid runs only its own code; the map keeps a backup copy on another member and forgets
 * an entry nobody used for {@link GridMaps#MAX_IDLE} (by then a key's budget is full again, unless
 * its policy's burst spans more than that). While the grid does not answer a local fallback decides
 * (package documentation, "Degraded mode"); instances outside it: {@link FallbackBridge}.
 */
public final class GridKeyedRateLimiter implements KeyedRateLimiter {
  private static final Logger LOG = Logger.getLogger(GridKeyedRateLimiter.class.getName());

  /** The grid map that holds the budgets. */
  public static final String MAP_NAME = "taskgate-rate-limits";

  /** How many calls within a second the grid must miss before the instance stops asking it. */
  static final int DEGRADE_AFTER = 3;

  /** While degraded, how often one call tries the grid again. */
  static final long PROBE_EVERY_NANOS = 1_000_000_000L;

  /** At most one warning about the grid per this long. */
  static final long WARN_EVERY_NANOS = 60_000_000_000L;

  private final GridCells cells;
  private final GridStarts starts;
  private final FallbackBridge bridge;
  private final IntSupplier members;
  private final Duration budget;
  private final long budgetNanos;
  private final Supplier<KeyedRateLimiter> fallbacks;
  private final int maxTrackedKeys;
  private final AtomicBoolean degraded = new AtomicBoolean();
  private final AtomicInteger failures = new AtomicInteger();
  private volatile long failureWindow = Long.MIN_VALUE;
  private final AtomicLong nextProbe = new AtomicLong();
  private final AtomicLong degradations = new AtomicLong();
  private final AtomicLong fallbackDecisions = new AtomicLong();
  private volatile long degradedSince;
  private volatile long lastWarning = Long.MIN_VALUE;
  private volatile int share = 1;
  private volatile KeyedRateLimiter fallback;
  private volatile List<String> outside = List.of();
  private volatile long lastSplitWarning = Long.MIN_VALUE;
  private final Map<UUID, Long> fallbackReservations = new ConcurrentHashMap<>();

  /**
   * @param map the grid map of budgets ({@link #MAP_NAME})
   * @param members how many members the grid has now
   * @param budget how long a call waits for the grid before the fallback decides
   * @param fallbacks makes an empty local limiter, for the degraded mode
   * @param maxTrackedKeys the key cap reported in {@link #stats()}
   */
  public GridKeyedRateLimiter(
      IMap<String, byte[]> map,
      IntSupplier members,
      Duration budget,
      Supplier<KeyedRateLimiter> fallbacks,
      int maxTrackedKeys) {
    this.members = members;
    this.budget = budget;
    this.budgetNanos = budget.toNanos();
    this.fallbacks = fallbacks;
    this.fallback = fallbacks.get();
    this.maxTrackedKeys = maxTrackedKeys;
    this.cells = new GridCells(map, budget);
    this.starts = new GridStarts(cells, degraded::get, budgetNanos);
    this.bridge = new FallbackBridge(cells);
    cells.warmUp();
  }

  @Override
  public RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long nowEpochNanos) {
    return reserve(scope, key, reservationId, nowEpochNanos, 1);
  }

  @Override
  public RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long nowEpochNanos, int cost) {
    UUID id = reservationId == null ? null : GridCells.idOf(reservationId);
    if (id != null && !fallbackReservations.isEmpty()) {
      Long slot = fallbackReservations.get(id);
      if (slot != null) {
        if (slot > nowEpochNanos) {
          return RateLimitDecision.deferred(slot, nowEpochNanos);
        }
        fallbackReservations.remove(id);
        return RateLimitDecision.runNow();
      }
    }
    if (!degraded.get()
        || (outside.isEmpty() && probeDue(nowEpochNanos) && resumed(nowEpochNanos))) {
      GcraCell.Rules rules = GcraCell.Rules.of(scope.policy());
      try {
        RateLimitDecision decision =
            cells.update(
                GridCells.cellKey(scope, key),
                cell -> cell.reserve(rules, id, nowEpochNanos, cost));
        return decision;
      } catch (GridUnavailable e) {
        failed(nowEpochNanos, e);
        if (!degraded.get()) { // spends nothing: asks the grid again after the budget
          return RateLimitDecision.deferred(nowEpochNanos + budgetNanos, nowEpochNanos);
        }
      }
    }
    bridge.deciding(scope);
    fallbackDecisions.incrementAndGet();
    KeyedRateLimiter local = fallback;
    RateLimitDecision kept =
        outside.isEmpty()
            ? null
            : bridge.kept(scope, key, id, nowEpochNanos, local, shareOf(scope));
    if (kept != null) {
      return kept; // the grid answers, and holds a slot for it
    }
    RateLimitDecision decision = local.reserve(shareOf(scope), key, id, nowEpochNanos, cost);
    if (id != null && decision.outcome() == RateLimitDecision.Outcome.DEFERRED) {
      fallbackReservations.put(id, decision.slotEpochNanos());
    }
    return decision;
  }

  @Override
  public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos) {
    return peek(scope, key, nowEpochNanos, 1);
  }

  @Override
  public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos, int cost) {
    if (!degraded.get()) {
      try {
        byte[] cell = cells.read(GridCells.cellKey(scope, key));
        return GcraCell.decode(cell).peek(GcraCell.Rules.of(scope.policy()), nowEpochNanos, cost);
      } catch (GridUnavailable e) {
        failed(nowEpochNanos, e);
      }
    }
    return fallback.peek(shareOf(scope), key, nowEpochNanos, cost);
  }

  @Override
  public boolean release(RateLimitScope scope, String key, Object reservationId) {
    UUID id = GridCells.idOf(reservationId);
    if (fallbackReservations.remove(id) != null) {
      return true;
    }
    if (degraded.get()) {
      return false;
    }
    try {
      return cells.update(GridCells.cellKey(scope, key), cell -> cell.release(id));
    } catch (GridUnavailable e) {
      LOG.log(Level.FINE, "Taskgate could not release a reservation in the data grid", e);
      return false;
    }
  }

  /** Shifts the key's cell in the grid; while degraded, the fallback's share of it. */
  @Override
  public long shift(
      RateLimitScope scope, String key, long untilEpochNanos, long nowEpochNanos, Object first) {
    if (!degraded.get()) {
      try {
        GcraCell.Rules rules = GcraCell.Rules.of(scope.policy());
        UUID id = first == null ? null : GridCells.idOf(first);
        return cells.update(
            GridCells.cellKey(scope, key),
            cell -> cell.shift(rules, untilEpochNanos, nowEpochNanos, id));
      } catch (GridUnavailable e) {
        LOG.log(Level.WARNING, "Taskgate could not move a key's slots in the data grid", e);
      }
    }
    return fallback.shift(shareOf(scope), key, untilEpochNanos, nowEpochNanos, first);
  }

  /** Raises the key's cell in the grid (both chains, never back); else the fallback's. */
  @Override
  public boolean restore(RateLimitScope scope, String key, long floor, long nowEpochNanos) {
    if (!degraded.get()) {
      try {
        cells.update(GridCells.cellKey(scope, key), cell -> cell.restore(floor));
        return true; // the cell holds the floor now, whether it moved or was there
      } catch (GridUnavailable e) {
        LOG.log(Level.WARNING, "Taskgate could not restore a key's budget in the data grid", e);
      }
    }
    return fallback.restore(shareOf(scope), key, floor, nowEpochNanos);
  }

  /** The slot the grid (or, while degraded, the fallback) holds for the reservation. */
  @Override
  public long reservedSlot(RateLimitScope scope, String key, Object reservationId) {
    UUID id = GridCells.idOf(reservationId);
    Long local = fallbackReservations.get(id);
    if (local != null) {
      return local;
    }
    if (degraded.get()) {
      return NO_RESERVATION;
    }
    try {
      return GcraCell.decode(cells.read(GridCells.cellKey(scope, key))).slotOf(id);
    } catch (GridUnavailable e) {
      LOG.log(Level.FINE, "Taskgate could not read a reservation in the data grid", e);
      return NO_RESERVATION;
    }
  }

  /** The check of every gated start on this limiter's cells (nothing asked while degraded). */
  public GridStarts starts() {
    return starts;
  }

  /** Grid entries expire by themselves; this forgets the fallback's idle keys. */
  @Override
  public int evictIdle(long nowEpochNanos) {
    return fallback.evictIdle(nowEpochNanos);
  }

  @Override
  public Stats stats() {
    Stats local = fallback.stats();
    return new Stats(
        cells.ownedEntries(),
        fallbackReservations.size(),
        local.untrackedDecisions(),
        maxTrackedKeys);
  }

  /** Whether the grid answers, and how often it has not. */
  public GridStatus status() {
    return new GridStatus(
        degraded.get(),
        degraded.get() ? degradedSince : 0,
        degradations.get(),
        fallbackDecisions.get(),
        share,
        budget,
        outside);
  }

  /**
   * The live instances sharing the database that are not members of this grid ({@code ids}; empty:
   * none), of {@code instances} live ones in all, this one included. While there are any, every key
   * is decided locally at 1/{@code instances} of its rate; once there are none, the next call tries
   * the grid again.
   */
  public void peersOutside(List<String> ids, int instances, long now) {
    if (ids.isEmpty()) {
      if (!outside.isEmpty()) {
        outside = List.of();
        LOG.info(
            "Taskgate: every instance sharing the database is in this data grid again; its"
                + " budgets go back to the grid");
        nextProbe.set(now);
        if (degraded.get() && probeDue(now)) {
          resumed(now); // else the next call tries again
        }
      }
      return;
    }
    outside = List.copyOf(ids);
    if (!enterDegraded(now, Math.max(1, instances))) {
      share = Math.max(share, instances); // already degraded: the smaller share of the two
    }
    if (lastSplitWarning == Long.MIN_VALUE || now - lastSplitWarning >= WARN_EVERY_NANOS) {
      lastSplitWarning = now;
      LOG.severe(
          "Taskgate instances "
              + ids
              + " share this database but not this data grid (another cluster name, a grid of"
              + " their own, or taskgate.rate-limit.limiter=local): they spend budgets of their"
              + " own. Until every instance is in one grid, this instance limits each key to 1/"
              + share
              + " of its rate");
    }
  }

  private boolean probeDue(long now) {
    long next = nextProbe.get();
    return now >= next && nextProbe.compareAndSet(next, now + PROBE_EVERY_NANOS);
  }

  /**
   * A call the grid did not answer in time: it is decided locally, at this instance's share, and
   * after {@link #DEGRADE_AFTER} such calls within a second the instance stops asking the grid for
   * a while (one slow answer, a collector pause on the key's member, does not switch the mode).
   */
  private void failed(long now, GridUnavailable cause) {
    if (!degraded.get()) {
      share = Math.max(1, members.getAsInt());
    }
    long start = failureWindow;
    int missed;
    if (now - start > PROBE_EVERY_NANOS || now < start) {
      failureWindow = now;
      failures.set(1);
      missed = 1;
    } else {
      missed = failures.incrementAndGet();
    }
    if (missed >= DEGRADE_AFTER) {
      degrade(now, cause);
    }
  }

  private void degrade(long now, GridUnavailable cause) {
    if (enterDegraded(now, Math.max(1, members.getAsInt()))) {
      if (lastWarning == Long.MIN_VALUE || now - lastWarning >= WARN_EVERY_NANOS) {
        lastWarning = now;
        LOG.log(
            Level.WARNING,
            "Taskgate's data grid did not answer a rate-limit call ("
                + cause.getMessage()
                + "); until it does, this instance limits each key to its share, 1/"
                + share
                + " of the key's rate (taskgate.rate-limit.grid-timeout="
                + budget
                + ")",
            cause.getCause());
      }
    }
  }

  /** Switches to the fallback at 1/{@code n} of each rate; false if it was on it already. */
  private boolean enterDegraded(long now, int n) {
    if (degraded.get()) {
      return false;
    }
    share = n; // before the switch: no call decides locally at the full rate
    if (!degraded.compareAndSet(false, true)) {
      return false;
    }
    degradedSince = now;
    nextProbe.set(now + PROBE_EVERY_NANOS);
    degradations.incrementAndGet();
    return true;
  }

  /**
   * Tries the grid again: carries the TAT of every key the fallback spent budget on into the grid,
   * so that no key's slot moves back, and ends the degraded mode if the grid answered within the
   * budget (or a second, for many keys). The caller is the one thread whose probe is due.
   */
  private boolean resumed(long now) {
    Map<String, Long> floors = bridge.floors(fallback, now);
    try {
      cells.raiseAll(floors, Math.max(budget.toNanos(), PROBE_EVERY_NANOS));
    } catch (GridUnavailable e) {
      LOG.log(Level.FINE, "Taskgate's data grid does not answer yet", e);
      return false;
    }
    int carried = floors.size();
    fallback = fallbacks.get();
    degraded.set(false);
    LOG.info(
        "Taskgate's data grid answers again after "
            + Duration.ofNanos(now - degradedSince)
            + "; "
            + fallbackDecisions.get()
            + " rate-limit decisions were taken locally so far; the budgets of "
            + carried
            + " keys spent meanwhile are carried into the grid");
    return true;
  }

  private RateLimitScope shareOf(RateLimitScope scope) {
    return RateShare.of(scope, share);
  }

  /** Stops the threads that talk to the grid. */
  public void close() {
    cells.close();
  }
}
