package io.taskgate.engine.cluster.grid;

import com.hazelcast.core.HazelcastInstance;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.store.InstanceRecord;
import io.taskgate.store.SavedBudget;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import org.eclipse.microprofile.config.Config;

/**
 * The data grid as Taskgate uses it: its settings ({@link GridSettings}, read and checked once from
 * MicroProfile Config) and, when the budgets live in the grid, the limiter, which its host
 * registers at start so that the views can report on it, and the job throttlers' state.
 */
@ApplicationScoped
public class GridState {
  @Inject Config config;

  private GridSettings settings;
  private volatile GridKeyedRateLimiter limiter;
  private volatile GridMembership membership;
  private volatile HazelcastInstance grid;
  private GridThrottlerState throttlers;

  /** For CDI. */
  public GridState() {}

  private GridState(GridSettings settings) {
    this.settings = settings;
  }

  /** A state with these settings, for code and tests outside the container. */
  public static GridState of(GridSettings settings) {
    return new GridState(settings);
  }

  @PostConstruct
  void load() {
    settings = GridSettings.read(key -> config.getOptionalValue(key, String.class));
  }

  /** The settings. */
  public GridSettings settings() {
    return settings;
  }

  /** Registers the grid limiter in use and the grid it uses. */
  public void use(GridKeyedRateLimiter limiter, GridMembership membership, HazelcastInstance grid) {
    this.limiter = limiter;
    this.membership = membership;
    this.grid = grid;
  }

  /**
   * The job throttlers' state in the grid, made at the first call, its wake-ups told on a thread
   * {@code threads} makes; empty when the budgets are local.
   */
  public synchronized Optional<ThrottlerState> throttlerState(ThreadFactory threads) {
    if (throttlers == null && grid != null) {
      throttlers =
          new GridThrottlerState(GridMaps.throttlers(grid), settings.gridTimeout(), threads);
    }
    return Optional.ofNullable(throttlers);
  }

  @PreDestroy
  synchronized void close() {
    if (throttlers != null) {
      throttlers.close();
    }
  }

  /** This instance's member of the grid, for its heartbeat; empty when the budgets are local. */
  public Optional<String> member() {
    GridMembership current = membership;
    return current == null ? Optional.empty() : Optional.of(current.self());
  }

  /**
   * Checks that each live peer sharing the database named a member of this grid in its heartbeat;
   * tells the limiter which did not. Does nothing when the budgets are local.
   */
  public void checkPeers(List<InstanceRecord> alivePeers, long nowEpochNanos) {
    GridKeyedRateLimiter current = limiter;
    GridMembership grid = membership;
    if (current == null || grid == null) {
      return;
    }
    Set<String> members = grid.members();
    List<String> outside =
        alivePeers.stream()
            .filter(peer -> peer.gridMember() == null || !members.contains(peer.gridMember()))
            .map(InstanceRecord::id)
            .toList();
    current.peersOutside(outside, alivePeers.size() + 1, nowEpochNanos);
  }

  /**
   * Checks a gated start against the starts of the key on every instance ({@link
   * GridStarts#tryStart}): 0 to start now, else the nanoseconds to wait; {@link
   * GridStarts#UNCHECKED} when the budgets are local or the grid could not check it.
   */
  public long tryStart(
      String scope, String key, RateLimitPolicy policy, long nowEpochNanos, long token) {
    return tryStart(scope, key, policy, nowEpochNanos, token, 1);
  }

  /** {@link #tryStart(String, String, RateLimitPolicy, long, long)} of {@code cost} units. */
  public long tryStart(
      String scope, String key, RateLimitPolicy policy, long nowEpochNanos, long token, int cost) {
    GridKeyedRateLimiter current = limiter;
    return current == null
        ? GridStarts.UNCHECKED
        : current.starts().tryStart(scope, key, policy, nowEpochNanos, token, cost);
  }

  /** See {@link GridStarts#begun}; nothing when the budgets are local. */
  public void begun(
      String scope, String key, RateLimitPolicy policy, long token, long atEpochNanos, int cost) {
    GridKeyedRateLimiter current = limiter;
    if (current != null) {
      current.starts().begun(scope, key, policy, token, atEpochNanos, cost);
    }
  }

  /**
   * The budgets of {@code keys} (scope, key) as their starts left them in the grid, each key's
   * starts' TAT, for those the grid has a cell of; waits at most {@code timeout}. Empty when the
   * budgets are local.
   *
   * @throws IllegalStateException when the grid did not answer in time
   */
  public List<SavedBudget> startTats(
      Collection<Map.Entry<String, String>> keys, java.time.Duration timeout) {
    GridKeyedRateLimiter current = limiter;
    if (current == null || keys.isEmpty()) {
      return List.of();
    }
    Map<String, Map.Entry<String, String>> byCell = new HashMap<>();
    for (Map.Entry<String, String> key : keys) {
      byCell.put(GridCells.cellKey(key.getKey(), key.getValue()), key);
    }
    List<SavedBudget> saved = new ArrayList<>();
    Map<String, Long> tats;
    try {
      tats = current.starts().cells().startTats(byCell.keySet(), timeout.toNanos());
    } catch (GridUnavailable e) {
      throw new IllegalStateException("the data grid did not answer: " + e.getMessage(), e);
    }
    tats.forEach(
        (cell, tat) -> {
          if (tat != Long.MIN_VALUE) {
            Map.Entry<String, String> key = byCell.get(cell);
            saved.add(new SavedBudget(key.getKey(), key.getValue(), tat));
          }
        });
    return saved;
  }

  /**
   * The members of this grid; empty when the budgets are local. An instance whose heartbeat names
   * none of them is not in this grid (stopped, dead, or in another).
   */
  public Set<String> members() {
    GridMembership grid = membership;
    return grid == null ? Set.of() : grid.members();
  }

  /** The grid's status; empty when the budgets are local. */
  public Optional<GridStatus> status() {
    GridKeyedRateLimiter current = limiter;
    return current == null ? Optional.empty() : Optional.of(current.status());
  }
}
