package io.taskgate.engine.cluster.grid;

import io.taskgate.core.ratelimit.GcraCell;
import io.taskgate.core.ratelimit.KeyQuery;
import io.taskgate.core.ratelimit.KeyState;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What passes between the grid's budgets and the local fallback that decides while the grid does
 * not answer, or while peers outside it share the database ({@link GridKeyedRateLimiter}): into the
 * grid, when it answers again, the TAT of every key the fallback spent budget on ({@link #floors});
 * out of it, while peers are outside ({@link #kept}).
 *
 * <p>While peers outside the grid turn this instance to its local share ({@link
 * GridKeyedRateLimiter#peersOutside}), the grid still answers: what it holds of a key still counts.
 * A task the grid reserved a slot for keeps it (a task taken over from an instance that was killed,
 * whose heartbeat still looks alive for a moment while its member has left the grid, is the usual
 * one), and the first local decision of a key starts after the grid's last slot of it, not from a
 * full budget beside it: otherwise the local share's first slots would fall among the slots the
 * grid gave out just before, closer than the policy allows.
 *
 * <h2>Instances outside the grid ({@link GridKeyedRateLimiter})</h2>
 *
 * Instances that share the database but not this grid (another cluster name, a grid of their own,
 * the local limiter) spend budgets of their own. Told so ({@link #peersOutside}, at each
 * heartbeat), the instance decides locally at 1/N of each key's rate, N the live instances, until
 * every one of them is in its grid again; then it resumes as after the degraded mode. The grid
 * still answers meanwhile: a slot it holds for a task stays the task's, and a key's first local
 * slot comes after the grid's last ({@link FallbackBridge#kept}). Logged as {@code SEVERE} once a
 * minute at most.
 */
final class FallbackBridge {
  private static final Logger LOG = Logger.getLogger(FallbackBridge.class.getName());

  private final GridCells cells;
  private volatile KeyedRateLimiter seededFor;
  private final Set<String> seeded = ConcurrentHashMap.newKeySet();
  private final Map<String, RateLimitScope> scopes = new ConcurrentHashMap<>();

  FallbackBridge(GridCells cells) {
    this.cells = cells;
  }

  /** The fallback decides for {@code scope}: its keys' budgets are carried back by name. */
  void deciding(RateLimitScope scope) {
    scopes.putIfAbsent(scope.name(), scope);
  }

  /**
   * The TAT of every key of {@code spent} (the fallback) with a slot still to come at {@code now},
   * by cell key: the floors the grid's cells are raised to ({@link GcraCell#raise}), so that no
   * key's slot moves back and no key bursts.
   */
  Map<String, Long> floors(KeyedRateLimiter spent, long now) {
    Map<String, Long> floors = new HashMap<>();
    for (KeyState state : spent.keys(KeyQuery.all(KeyQuery.MAX_LIMIT), now).keys()) {
      RateLimitScope scope = scopes.get(state.scope());
      if (scope != null && state.nextSlotEpochNanos() > now) {
        floors.put(
            GridCells.cellKey(scope, state.key()),
            state.nextSlotEpochNanos() + scope.policy().burstToleranceNanos());
      }
    }
    return floors;
  }

  /**
   * The decision the grid holds for {@code id} of the key, or null after starting the key in {@code
   * fallback} (whose scope for it is {@code share}) after the grid's chain, once per key and
   * fallback. Null too when the grid does not answer: the fallback decides alone then.
   */
  RateLimitDecision kept(
      RateLimitScope scope,
      String key,
      UUID id,
      long now,
      KeyedRateLimiter fallback,
      RateLimitScope share) {
    String cellKey = GridCells.cellKey(scope, key);
    boolean first;
    synchronized (this) {
      if (seededFor != fallback) {
        seeded.clear();
        seededFor = fallback;
      }
      first = !seeded.contains(cellKey);
    }
    if (!first && id == null) {
      return null;
    }
    GcraCell cell;
    try {
      cell = GcraCell.decode(cells.read(cellKey));
    } catch (GridUnavailable e) {
      LOG.log(Level.FINE, "Taskgate could not read a key's cell in the grid", e);
      return null;
    }
    long slot = id == null ? KeyedRateLimiter.NO_RESERVATION : cell.slotOf(id);
    if (slot != KeyedRateLimiter.NO_RESERVATION) {
      return slot > now ? RateLimitDecision.deferred(slot, now) : RateLimitDecision.runNow();
    }
    if (first && seeded.add(cellKey) && cell.tat() > now) {
      fallback.shift(share, key, cell.tat(), now, null);
    }
    return null;
  }
}
