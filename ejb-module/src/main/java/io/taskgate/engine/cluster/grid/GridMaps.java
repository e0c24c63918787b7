package io.taskgate.engine.cluster.grid;

import com.hazelcast.config.EvictionConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The data grid maps Taskgate uses, configured the same on every member. */
public final class GridMaps {
  private static final Logger LOG = Logger.getLogger(GridMaps.class.getName());

  /** The grid map that holds the rate-limit budgets. */
  public static final String MAP_NAME = GridKeyedRateLimiter.MAP_NAME;

  /** An entry nobody used for this long leaves the grid. */
  static final Duration MAX_IDLE = Duration.ofHours(24);

  private GridMaps() {}

  /**
   * The budgets' map on {@code grid}, configured first (the same on every member): one backup copy
   * on another member, values kept as bytes, at most {@code maxTrackedKeys} entries per member
   * (least recently used first out beyond it), an entry idle for {@link #MAX_IDLE} forgotten.
   */
  public static IMap<String, byte[]> budgets(HazelcastInstance grid, int maxTrackedKeys) {
    MapConfig config =
        base(MAP_NAME)
            .setMaxIdleSeconds((int) MAX_IDLE.toSeconds())
            .setEvictionConfig(
                new EvictionConfig()
                    .setEvictionPolicy(EvictionPolicy.LRU)
                    .setMaxSizePolicy(MaxSizePolicy.PER_NODE)
                    .setSize(maxTrackedKeys));
    return outsideApplication(
        "budgets",
        () -> {
          configure(grid, config);
          IMap<String, byte[]> budgets = grid.getMap(MAP_NAME);
          // the grid assigns its partitions at the first operation: here, not at the first
          // task's reservation, which would wait for it longer than the grid timeout
          budgets.get(MAP_NAME);
          return budgets;
        });
  }

  /**
   * The job throttlers' maps and topic on {@code grid}: holds, the per-task index of holds and
   * window counts, each with one backup copy on another member and no eviction (a hold forgotten
   * would let a second task into a mutex); a window idle for {@link #MAX_IDLE} is forgotten.
   */
  public static GridThrottlerState.Parts throttlers(HazelcastInstance grid) {
    return outsideApplication(
        "throttlers",
        () -> {
          for (String name : List.of(GridThrottlerState.HOLDS, GridThrottlerState.HELD)) {
            configure(grid, base(name));
          }
          configure(
              grid, base(GridThrottlerState.WINDOWS).setMaxIdleSeconds((int) MAX_IDLE.toSeconds()));
          GridThrottlerState.Parts parts =
              new GridThrottlerState.Parts(
                  grid.getMap(GridThrottlerState.HOLDS),
                  grid.getMap(GridThrottlerState.HELD),
                  grid.getMap(GridThrottlerState.WINDOWS),
                  grid.getTopic(GridThrottlerState.FREED),
                  grid.getCluster().getLocalMember().getUuid(),
                  () -> grid.getCluster().getMembers().size());
          parts.holds().get(GridThrottlerState.HOLDS);
          return parts;
        });
  }

  private static MapConfig base(String name) {
    return new MapConfig(name)
        .setBackupCount(1)
        .setAsyncBackupCount(0)
        .setInMemoryFormat(InMemoryFormat.BINARY);
  }

  private static void configure(HazelcastInstance grid, MapConfig config) {
    try {
      grid.getConfig().addMapConfig(config);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate could not configure the data grid map "
              + config.getName()
              + " (another member configured it differently?); it keeps the"
              + " configuration it has",
          e);
    }
  }

  /**
   * Runs {@code setUp} on a thread of no application: Payara ties a grid object created from an
   * application's thread to that application (its tenant control), and another member then fails to
   * create its proxy; Taskgate's grid objects hold only bytes and strings, so they need none.
   */
  private static <T> T outsideApplication(String what, Supplier<T> setUp) {
    AtomicReference<T> made = new AtomicReference<>();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    Thread outside =
        new Thread(
            () -> {
              try {
                made.set(setUp.get());
              } catch (RuntimeException e) {
                failure.set(e);
              }
            },
            "taskgate-grid-setup-" + what);
    outside.start();
    try {
      outside.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while setting up the data grid's " + what, e);
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return made.get();
  }
}
