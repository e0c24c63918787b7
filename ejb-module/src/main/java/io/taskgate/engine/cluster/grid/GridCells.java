package io.taskgate.engine.cluster.grid;

import com.hazelcast.map.IMap;
import io.taskgate.core.ratelimit.GcraCell;
import io.taskgate.core.ratelimit.RateLimitScope;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The keys' cells in the grid map, read and changed within a time budget. A change reads the entry,
 * decides on a {@link GcraCell}, and writes it back with the grid's own compare-and-set ({@code
 * replace(key, old, new)}, {@code putIfAbsent} for a new key), retried while another instance
 * changed it in between: only Hazelcast's own operations run on the member that owns the key, on
 * bytes. The calls run on threads of their own so that the caller waits at most the budget. A key's
 * entry is named by its scope and key ({@link #cellKey}), and a cell keeps its reservations by UUID
 * ({@link #idOf}).
 */
final class GridCells {
  private static final Logger LOG = Logger.getLogger(GridCells.class.getName());

  /** How many times in a row a key's compare-and-set may lose to other instances. */
  static final int MAX_ATTEMPTS = 100;

  /** How many calls warm the grid path up at start. */
  static final int WARM_UP_CALLS = 200;

  private final IMap<String, byte[]> map;
  private final GridCalls calls;

  GridCells(IMap<String, byte[]> map, Duration budget) {
    this.map = map;
    this.calls = new GridCalls(budget, "taskgate-grid-call");
  }

  /** The grid entry of {@code key} in {@code scope}. */
  static String cellKey(RateLimitScope scope, String key) {
    return cellKey(scope.name(), key);
  }

  /** The grid entry of {@code key} in the scope named {@code scope}. */
  static String cellKey(String scope, String key) {
    return scope + '\u0000' + key;
  }

  /** A reservation id as a cell keeps it. */
  static UUID idOf(Object reservationId) {
    return reservationId instanceof UUID uuid
        ? uuid
        : UUID.nameUUIDFromBytes(reservationId.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Runs the compare-and-set path a few times before the first task's call, so that its first calls
   * are not the ones that wait for code loading and compilation past the grid timeout.
   */
  void warmUp() {
    try {
      for (int i = 0; i < WARM_UP_CALLS; i++) {
        GridCalls.await(
            calls.submit(() -> compareAndSet(GridMaps.MAP_NAME, raise(0))),
            TimeUnit.SECONDS.toNanos(5));
      }
    } catch (GridUnavailable | RuntimeException e) {
      LOG.log(Level.FINE, "Taskgate could not warm up its data grid calls", e);
    }
  }

  /** Changes a key's cell, waiting for it at most the budget. */
  <T> T update(String key, Function<GcraCell, T> change) throws GridUnavailable {
    return calls.call(() -> compareAndSet(key, change));
  }

  /**
   * Changes a key's cell without waiting for it; a failure is logged. The answer completes when the
   * change has landed (or failed), for a caller that wants to know.
   */
  CompletableFuture<?> updateLater(String key, Function<GcraCell, ?> change) {
    try {
      return calls
          .submit(() -> compareAndSet(key, change))
          .whenComplete(
              (done, failure) -> {
                if (failure != null) {
                  LOG.log(
                      Level.FINE, "Taskgate could not change a key's cell in the grid", failure);
                }
              });
    } catch (GridUnavailable e) {
      LOG.log(Level.FINE, "Taskgate could not change a key's cell in the grid", e);
      return CompletableFuture.failedFuture(e);
    }
  }

  /** A key's cell as stored, null when the grid has none; waits at most the budget. */
  byte[] read(String key) throws GridUnavailable {
    try {
      return calls.await(map.getAsync(key));
    } catch (RuntimeException e) {
      throw new GridUnavailable(e.toString(), e);
    }
  }

  /**
   * Moves each key's TAT to at least its floor, all in parallel, within {@code timeoutNanos}; with
   * no key, checks that the grid answers.
   */
  void raiseAll(Map<String, Long> floors, long timeoutNanos) throws GridUnavailable {
    try {
      if (floors.isEmpty()) {
        GridCalls.await(map.getAsync(GridMaps.MAP_NAME), timeoutNanos);
        return;
      }
      List<CompletableFuture<Void>> raises = new ArrayList<>();
      for (Map.Entry<String, Long> floor : floors.entrySet()) {
        raises.add(calls.submit(() -> compareAndSet(floor.getKey(), raise(floor.getValue()))));
      }
      GridCalls.await(
          CompletableFuture.allOf(raises.toArray(CompletableFuture[]::new)), timeoutNanos);
    } catch (RuntimeException e) {
      throw new GridUnavailable(e.toString(), e);
    }
  }

  /**
   * The starts' TAT of each of {@code keys} ({@link Long#MIN_VALUE} for a key without a cell), read
   * in one call within {@code timeoutNanos}.
   */
  Map<String, Long> startTats(java.util.Set<String> keys, long timeoutNanos)
      throws GridUnavailable {
    try {
      Map<String, byte[]> cells =
          GridCalls.await(calls.submit(() -> map.getAll(keys)), timeoutNanos);
      Map<String, Long> tats = new java.util.HashMap<>();
      for (String key : keys) {
        byte[] cell = cells.get(key);
        tats.put(key, cell == null ? Long.MIN_VALUE : GcraCell.decode(cell).startTat());
      }
      return tats;
    } catch (RuntimeException e) {
      throw new GridUnavailable(e.toString(), e);
    }
  }

  /** Entries this member owns. */
  int ownedEntries() {
    return (int) Math.min(Integer.MAX_VALUE, map.getLocalMapStats().getOwnedEntryCount());
  }

  /** Stops the threads that talk to the grid. */
  void close() {
    calls.close();
  }

  private static Function<GcraCell, Void> raise(long floor) {
    return cell -> {
      cell.raise(floor);
      return null;
    };
  }

  private <T> T compareAndSet(String key, Function<GcraCell, T> change) {
    for (int attempt = 1; ; attempt++) {
      byte[] old = map.get(key);
      GcraCell cell = GcraCell.decode(old);
      T answer = change.apply(cell);
      if (!cell.changed()) {
        return answer;
      }
      byte[] next = cell.encode();
      if (old == null ? map.putIfAbsent(key, next) == null : map.replace(key, old, next)) {
        return answer;
      }
      if (attempt == MAX_ATTEMPTS) {
        throw new IllegalStateException(
            "the key's entry changed under " + MAX_ATTEMPTS + " attempts in a row");
      }
    }
  }
}
