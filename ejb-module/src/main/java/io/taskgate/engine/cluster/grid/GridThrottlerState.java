package io.taskgate.engine.cluster.grid;

import com.hazelcast.map.IMap;
import com.hazelcast.topic.ITopic;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.DynamicWindowState;
import io.taskgate.core.throttle.Holders;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.core.throttle.WindowCounts;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The job throttlers' state in the data grid, one for the whole cluster: each mutex's and
 * semaphore's holders, each task's holds (so that any instance gives back what a task held when it
 * ends there) and each window's counts are grid entries of bytes, changed by compare-and-set
 * ({@link GridEntries}). A freed permit is announced on a grid topic, and every other instance
 * wakes its first task waiting for it.
 *
 * <p>A call that gets no answer within the budget ({@code taskgate.rate-limit.grid-timeout}) takes
 * nothing: the task asks again a second later ({@link ThrottlerState.Unavailable}). Such a call may
 * still reach the grid later; a hold taken so is the task's own, which it re-enters on its next
 * attempt and gives back when it ends. A release is never dropped: one the grid does not answer in
 * time is retried every second until it does, and what it frees is then announced.
 */
public final class GridThrottlerState implements ThrottlerState {
  private static final Logger LOG = Logger.getLogger(GridThrottlerState.class.getName());

  /** The grid map of the holders: resource to {@link Holders}. */
  public static final String HOLDS = "taskgate-throttler-holds";

  /** The grid map of what each task holds: task id to its {@code resource + '\n' + owner} pairs. */
  public static final String HELD = "taskgate-throttler-held";

  /** The grid map of the windows' counts: resource to {@link WindowCounts} or dynamic state. */
  public static final String WINDOWS = "taskgate-throttler-windows";

  /** The grid topic on which freed resources are announced. */
  public static final String FREED = "taskgate-throttler-freed";

  /** How often a release the grid failed is tried again. */
  static final Duration RETRY_EVERY = Duration.ofSeconds(1);

  /** How long a restore at start waits for the grid. */
  static final Duration RESTORE_TIMEOUT = Duration.ofSeconds(10);

  /**
   * The grid objects the state uses, and the grid's membership.
   *
   * @param holds {@link #HOLDS}
   * @param held {@link #HELD}
   * @param windows {@link #WINDOWS}
   * @param freed {@link #FREED}
   * @param self this member
   * @param members how many members the grid has
   */
  public record Parts(
      IMap<String, byte[]> holds,
      IMap<String, byte[]> held,
      IMap<String, byte[]> windows,
      ITopic<String> freed,
      UUID self,
      IntSupplier members) {}

  private final Parts parts;
  private final GridEntries<Holders> holds;
  private final GridEntries<Set<String>> held;
  private final GridEntries<WindowCounts> windows;
  private final GridEntries<DynamicWindowState> dynamic;
  private final GridCalls calls;
  private final ThreadFactory listenerThreads;
  private final GridWakeUps wakeUps;
  private volatile boolean closed;

  /**
   * @param parts the grid objects
   * @param budget how long a call waits for the grid
   * @param listenerThreads makes the thread that tells the listener of freed permits
   */
  public GridThrottlerState(Parts parts, Duration budget, ThreadFactory listenerThreads) {
    this.parts = parts;
    this.listenerThreads = listenerThreads;
    this.calls = new GridCalls(budget, "taskgate-grid-throttlers");
    this.wakeUps = new GridWakeUps(parts.freed(), parts.self());
    this.holds =
        new GridEntries<>(
            parts.holds(),
            Holders::new,
            Holders::readFrom,
            (h, out) -> h.writeTo(out),
            Holders::isEmpty);
    this.held =
        new GridEntries<>(
            parts.held(),
            LinkedHashSet::new,
            in -> {
              Set<String> pairs = new LinkedHashSet<>();
              for (int n = in.readInt(); n > 0; n--) {
                pairs.add(in.readUTF());
              }
              return pairs;
            },
            (pairs, out) -> {
              out.writeInt(pairs.size());
              for (String pair : pairs) {
                out.writeUTF(pair);
              }
            },
            Set::isEmpty);
    this.windows =
        new GridEntries<>(
            parts.windows(),
            WindowCounts::new,
            WindowCounts::readFrom,
            (w, out) -> w.writeTo(out),
            w -> w.lastBucket() < 0);
    this.dynamic =
        new GridEntries<>(
            parts.windows(),
            DynamicWindowState::new,
            DynamicWindowState::readFrom,
            (d, out) -> d.writeTo(out),
            d -> d.size() == 0);
  }

  @Override
  public Holders.Acquired acquire(String resource, String owner, String taskId, int limit) {
    String pair = resource + '\n' + owner;
    return answer(
        () -> {
          held.update(taskId, pairs -> pairs.add(pair)); // first: every hold has its index entry
          Holders.Acquired acquired = holds.update(resource, h -> h.acquire(owner, taskId, limit));
          if (acquired == Holders.Acquired.REFUSED) {
            held.update(taskId, pairs -> pairs.remove(pair));
          }
          return acquired;
        });
  }

  @Override
  public boolean release(String resource, String owner, String taskId) {
    return !settle(
            () -> {
              boolean freed = holds.update(resource, h -> h.release(owner, taskId));
              held.update(taskId, pairs -> pairs.remove(resource + '\n' + owner));
              return freed ? Set.of(resource) : Set.of();
            })
        .isEmpty();
  }

  @Override
  public Set<String> releaseAll(String taskId) {
    return settle(
        () -> {
          Set<String> pairs = held.get(taskId);
          Set<String> freed = new LinkedHashSet<>();
          for (String pair : pairs) {
            int cut = pair.indexOf('\n');
            String resource = pair.substring(0, cut);
            String owner = pair.substring(cut + 1);
            if (holds.update(resource, h -> h.release(owner, taskId))) {
              freed.add(resource);
            }
          }
          held.update(taskId, p -> p.removeAll(pairs));
          return freed;
        });
  }

  @Override
  public WindowCounts.Grant count(
      String resource, String sub, long nowMillis, WindowOptions options) {
    long bucket = options.bucket().toMillis();
    return answer(
        () ->
            sub == null
                ? windows.update(
                    resource, w -> w.acquire(nowMillis, options.limit(), bucket, options.buckets()))
                : dynamic.update(resource, d -> d.acquire(sub, nowMillis, options)));
  }

  @Override
  public void restore(String resource, String sub, long bucketStart, int count) {
    try {
      GridCalls.await(
          calls.submit(
              () ->
                  sub == null
                      ? windows.update(resource, w -> add(w, bucketStart, count))
                      : dynamic.update(resource, d -> restore(d, sub, bucketStart, count))),
          RESTORE_TIMEOUT.toNanos());
    } catch (GridUnavailable e) {
      throw new Unavailable("the data grid did not take the counts back: " + e.getMessage(), e);
    }
  }

  @Override
  public void giveBack(String resource, String sub, long bucketStart) {
    settle(
        () -> {
          if (sub == null) {
            windows.update(resource, w -> add(w, bucketStart, -1));
          } else {
            dynamic.update(
                resource,
                d -> {
                  d.giveBack(sub, bucketStart);
                  return null;
                });
          }
          return Set.of();
        });
  }

  private static Void add(WindowCounts window, long bucketStart, int delta) {
    window.add(bucketStart, delta);
    return null;
  }

  private static Void restore(DynamicWindowState state, String sub, long bucketStart, int count) {
    state.restore(sub, bucketStart, count);
    return null;
  }

  @Override
  public Map<String, Map<String, Set<String>>> holders() {
    return view(
        () -> {
          Map<String, Map<String, Set<String>>> view = new TreeMap<>();
          for (Map.Entry<String, byte[]> e : parts.holds().entrySet()) {
            view.put(e.getKey(), holds.decode(e.getValue()).view());
          }
          return view;
        },
        Map.of());
  }

  @Override
  public int owners(String resource) {
    return view(() -> holds.get(resource).owners(), 0);
  }

  @Override
  public Map<Long, Integer> buckets(String resource, long nowMillis, WindowOptions options) {
    return view(
        () ->
            windows
                .get(resource)
                .buckets(nowMillis, options.bucket().toMillis(), options.buckets()),
        Map.of());
  }

  @Override
  public long opensAt(String resource, long nowMillis, WindowOptions options) {
    return view(
        () ->
            windows
                .get(resource)
                .opensAt(
                    nowMillis, options.limit(), options.bucket().toMillis(), options.buckets()),
        nowMillis);
  }

  @Override
  public Map<String, Integer> subWindows(String resource, long nowMillis, WindowOptions options) {
    return view(
        () -> new LinkedHashMap<>(dynamic.get(resource).counts(nowMillis, options)), Map.of());
  }

  @Override
  public int limitOf(String resource, String sub, WindowOptions options) {
    return view(() -> dynamic.get(resource).limitOf(sub, options), options.limit());
  }

  /** Only when this member is alone in the grid and the grid holds no throttler state. */
  @Override
  public boolean rebuildNeeded() {
    return parts.members().getAsInt() <= 1
        && parts.holds().isEmpty()
        && parts.held().isEmpty()
        && parts.windows().isEmpty();
  }

  @Override
  public void announceGrown(String resource, int permits) {
    wakeUps.announceGrown(resource, permits);
  }

  @Override
  public void onGrownElsewhere(java.util.function.BiConsumer<String, Integer> listener) {
    wakeUps.onGrown(listener);
  }

  @Override
  public void onFreedElsewhere(Consumer<Set<String>> listener) {
    wakeUps.listen(listener, listenerThreads);
  }

  /** The grid objects it uses. */
  public Parts parts() {
    return parts;
  }

  /** Stops listening and calling the grid; a release still being retried is given up. */
  public void close() {
    closed = true;
    calls.close();
    wakeUps.close();
  }

  /** What {@code work} answers within the budget; unavailable otherwise. */
  private <T> T answer(Supplier<T> work) {
    try {
      return calls.call(work);
    } catch (GridUnavailable e) {
      throw new Unavailable("the data grid did not answer: " + e.getMessage(), e);
    }
  }

  /** What {@code work} answers within the budget; {@code otherwise} if it does not. */
  private <T> T view(Supplier<T> work, T otherwise) {
    try {
      return calls.call(work);
    } catch (GridUnavailable e) {
      LOG.log(Level.FINE, "Taskgate could not read the throttlers' state in the grid", e);
      return otherwise;
    }
  }

  /**
   * Runs a release until the grid takes it, and announces what it freed. Returns that if it is done
   * within the budget; otherwise nothing, and the listener is told later.
   */
  private Set<String> settle(Supplier<Set<String>> work) {
    CompletableFuture<Set<String>> release;
    try {
      release = calls.submit(() -> retried(work));
    } catch (GridUnavailable e) {
      LOG.log(Level.WARNING, "Taskgate could not give a throttle back: it is stopping", e);
      return Set.of();
    }
    try {
      Set<String> freed = calls.await(release);
      freed.forEach(wakeUps::announce);
      return freed;
    } catch (GridUnavailable e) {
      release.thenAccept(
          freed -> {
            if (!freed.isEmpty()) {
              wakeUps.freedHere(freed);
              freed.forEach(wakeUps::announce);
            }
          });
      return Set.of();
    }
  }

  private Set<String> retried(Supplier<Set<String>> work) {
    for (int attempt = 1; ; attempt++) {
      try {
        return work.get();
      } catch (RuntimeException e) {
        if (closed) {
          throw e;
        }
        if (attempt == 1) {
          LOG.log(
              Level.WARNING,
              "Taskgate could not give a throttle back in the data grid; it tries again every "
                  + RETRY_EVERY.toSeconds()
                  + " s",
              e);
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(RETRY_EVERY.toMillis()));
      }
    }
  }
}
