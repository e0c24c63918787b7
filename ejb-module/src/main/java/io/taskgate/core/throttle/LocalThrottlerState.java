package io.taskgate.core.throttle;

import io.taskgate.api.WindowOptions;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * {@link ThrottlerState} in this instance's memory: each resource's state is changed under its map
 * entry's lock ({@link ConcurrentHashMap#compute}); a mutex nobody holds takes no memory.
 */
public final class LocalThrottlerState implements ThrottlerState {
  private final ConcurrentHashMap<String, Holders> holders = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, WindowCounts> windows = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, DynamicWindowState> dynamic = new ConcurrentHashMap<>();

  /** Task id to the {@code resource + '\n' + owner} pairs it holds. */
  private final ConcurrentHashMap<String, Set<String>> heldBy = new ConcurrentHashMap<>();

  @Override
  public Holders.Acquired acquire(String resource, String owner, String taskId, int limit) {
    Holders.Acquired[] answer = new Holders.Acquired[1];
    holders.compute(
        resource,
        (r, h) -> {
          Holders state = h == null ? new Holders() : h;
          answer[0] = state.acquire(owner, taskId, limit);
          return state.isEmpty() ? null : state;
        });
    if (answer[0] == Holders.Acquired.GRANTED) {
      heldBy
          .computeIfAbsent(taskId, t -> ConcurrentHashMap.newKeySet())
          .add(resource + '\n' + owner);
    }
    return answer[0];
  }

  @Override
  public boolean release(String resource, String owner, String taskId) {
    boolean[] freed = new boolean[1];
    holders.computeIfPresent(
        resource,
        (r, h) -> {
          freed[0] = h.release(owner, taskId);
          return h.isEmpty() ? null : h;
        });
    heldBy.computeIfPresent(
        taskId,
        (t, held) -> {
          held.remove(resource + '\n' + owner);
          return held.isEmpty() ? null : held;
        });
    return freed[0];
  }

  @Override
  public Set<String> releaseAll(String taskId) {
    Set<String> held = heldBy.remove(taskId);
    if (held == null) {
      return Set.of();
    }
    Set<String> freed = new LinkedHashSet<>();
    for (String pair : held) {
      int cut = pair.indexOf('\n');
      String resource = pair.substring(0, cut);
      if (release(resource, pair.substring(cut + 1), taskId)) {
        freed.add(resource);
      }
    }
    return freed;
  }

  @Override
  public WindowCounts.Grant count(
      String resource, String sub, long nowMillis, WindowOptions options) {
    if (sub != null) {
      DynamicWindowState state = dynamic.computeIfAbsent(resource, r -> new DynamicWindowState());
      synchronized (state) {
        return state.acquire(sub, nowMillis, options);
      }
    }
    WindowCounts counts = windows.computeIfAbsent(resource, r -> new WindowCounts());
    synchronized (counts) {
      return counts.acquire(
          nowMillis, options.limit(), options.bucket().toMillis(), options.buckets());
    }
  }

  @Override
  public void restore(String resource, String sub, long bucketStart, int count) {
    if (sub != null) {
      DynamicWindowState state = dynamic.computeIfAbsent(resource, r -> new DynamicWindowState());
      synchronized (state) {
        state.restore(sub, bucketStart, count);
      }
      return;
    }
    WindowCounts counts = windows.computeIfAbsent(resource, r -> new WindowCounts());
    synchronized (counts) {
      counts.add(bucketStart, count);
    }
  }

  @Override
  public void giveBack(String resource, String sub, long bucketStart) {
    if (sub != null) {
      DynamicWindowState state = dynamic.get(resource);
      if (state != null) {
        synchronized (state) {
          state.giveBack(sub, bucketStart);
        }
      }
      return;
    }
    WindowCounts counts = windows.get(resource);
    if (counts != null) {
      synchronized (counts) {
        counts.add(bucketStart, -1);
      }
    }
  }

  @Override
  public Map<String, Map<String, Set<String>>> holders() {
    Map<String, Map<String, Set<String>>> view = new TreeMap<>();
    for (String resource : holders.keySet()) {
      // read under the entry's lock, as it is written
      holders.computeIfPresent(
          resource,
          (r, h) -> {
            view.put(r, h.view());
            return h;
          });
    }
    return view;
  }

  @Override
  public int owners(String resource) {
    int[] owners = new int[1];
    holders.computeIfPresent(
        resource,
        (r, h) -> {
          owners[0] = h.owners();
          return h;
        });
    return owners[0];
  }

  @Override
  public Map<Long, Integer> buckets(String resource, long nowMillis, WindowOptions options) {
    return read(
        windows,
        resource,
        Map.of(),
        counts -> counts.buckets(nowMillis, options.bucket().toMillis(), options.buckets()));
  }

  @Override
  public long opensAt(String resource, long nowMillis, WindowOptions options) {
    return read(
        windows,
        resource,
        nowMillis,
        counts ->
            counts.opensAt(
                nowMillis, options.limit(), options.bucket().toMillis(), options.buckets()));
  }

  @Override
  public Map<String, Integer> subWindows(String resource, long nowMillis, WindowOptions options) {
    return read(
        dynamic,
        resource,
        Map.of(),
        state -> new LinkedHashMap<>(state.counts(nowMillis, options)));
  }

  @Override
  public int limitOf(String resource, String sub, WindowOptions options) {
    return read(dynamic, resource, options.limit(), state -> state.limitOf(sub, options));
  }

  /**
   * What {@code read} reads from the state {@code states} keeps for {@code resource}, under the
   * state's lock (as it is written); {@code absent} when there is none.
   */
  private static <S, T> T read(
      Map<String, S> states, String resource, T absent, Function<S, ? extends T> read) {
    S state = states.get(resource);
    if (state == null) {
      return absent;
    }
    synchronized (state) {
      return read.apply(state);
    }
  }

  /** The tasks holding anything (for tests and views). */
  Set<String> holdingTasks() {
    return new HashSet<>(heldBy.keySet());
  }
}
