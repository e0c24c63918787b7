package io.taskgate.engine.throttle;

import io.taskgate.api.Task;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskQueries;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The door to throttling for the rest of the engine: builds each task type's {@link ThrottleChain}
 * from the registered kinds ({@link ThrottleProvider} beans) and routes to them what concerns the
 * tasks they keep waiting: cancels, re-dispatches, estimates, the claim-ahead lead, the start from
 * the store. The engine's claim, run, dispatch and schedule code knows throttling only through this
 * class, the {@link Throttle} SPI and {@link Permits}; adding a kind of throttle means adding a
 * provider, nothing here. Thread-safe.
 */
@ApplicationScoped
public class Throttles {
  /** The longest lead a kind may claim a task ahead of its slot with. */
  public static final Duration MAX_CLAIM_AHEAD = Duration.ofSeconds(5);

  @Inject @Any Instance<ThrottleProvider> registered;

  private List<ThrottleProvider> providers = List.of();

  /**
   * The chain of each task type, by handler class: a class hashes by identity, where the handler's
   * record would hash its policies on every task.
   */
  private final Map<Class<?>, ThrottleChain> chains = new ConcurrentHashMap<>();

  private final ResourceWaiters waiters = new ResourceWaiters();
  private volatile Consumer<Set<String>> onFreed = freed -> {};

  /** For CDI. */
  public Throttles() {}

  /** The door to {@code providers}' throttles, for tests and code outside the container. */
  public static Throttles of(List<? extends ThrottleProvider> providers) {
    Throttles throttles = new Throttles();
    throttles.providers = List.copyOf(providers);
    return throttles;
  }

  @PostConstruct
  void find() {
    List<ThrottleProvider> found = new ArrayList<>();
    registered.forEach(found::add);
    providers = List.copyOf(found);
  }

  /** The throttles of {@code handler}'s task type, in their order, every kind's together. */
  public ThrottleChain chainOf(HandlerInfo handler) {
    return chains.computeIfAbsent(
        handler.beanClass(),
        c -> {
          List<Throttle> throttles = new ArrayList<>();
          for (ThrottleProvider provider : providers) {
            throttles.addAll(provider.throttlesOf(handler));
          }
          return ThrottleChain.of(throttles);
        });
  }

  /** The tasks waiting for a resource of any kind to be released. */
  public ResourceWaiters waiters() {
    return waiters;
  }

  /** Who wakes the waiters of the resources a kind frees outside an attempt: the engine. */
  public void onFreed(Consumer<Set<String>> onFreed) {
    this.onFreed = onFreed;
  }

  /**
   * A kind freed {@code resources} outside an attempt (a task ended while holding, a release on
   * another instance, a semaphore grew): their waiters are woken.
   */
  public void freed(Set<String> resources) {
    if (!resources.isEmpty()) {
      onFreed.accept(resources);
    }
  }

  /** Every kind takes back what its unfinished tasks hold ({@link ThrottleProvider#start}). */
  public int start(Collection<HandlerInfo> handlers, TaskQueries queries, Payloads payloads) {
    int held = 0;
    for (ThrottleProvider provider : providers) {
      held += provider.start(handlers, queries, payloads);
    }
    return held;
  }

  /**
   * Every kind keeps its shared state in {@code state} ({@link ThrottleProvider#useState}); what it
   * frees on other instances wakes the tasks waiting here.
   */
  public void useState(ThrottlerState state) {
    state.onFreedElsewhere(this::freed);
    providers.forEach(p -> p.useState(state));
  }

  /** Every kind's throttles as the views list them ({@link ThrottleProvider#rows}). */
  public List<ThrottleRow> rows() {
    List<ThrottleRow> rows = new ArrayList<>();
    for (ThrottleProvider provider : providers) {
      rows.addAll(provider.rows());
    }
    return rows;
  }

  /** The key {@code task} is throttled by, for the views; null when it has none. */
  public String keyOf(HandlerInfo handler, Task task) {
    for (ThrottleProvider provider : providers) {
      String key = provider.keyOf(handler, task);
      if (key != null) {
        return key;
      }
    }
    return null;
  }

  /** Refuses a task some kind could never run ({@link ThrottleProvider#check}). */
  public void check(HandlerInfo handler, Task task, String where) {
    for (ThrottleProvider provider : providers) {
      provider.check(handler, task, where);
    }
  }

  /** When a task due at {@code due} would start: the latest any kind estimates. */
  public Instant estimatedStart(HandlerInfo handler, String key, Instant due, Instant now) {
    Instant start = due;
    for (ThrottleProvider provider : providers) {
      Instant estimate = provider.estimatedStart(handler, key, due, now);
      if (estimate != null && estimate.isAfter(start)) {
        start = estimate;
      }
    }
    return start;
  }

  /**
   * How long before its slot a parked task comes back to be claimed: the longest lead a kind asks
   * for, at most {@link #MAX_CLAIM_AHEAD}.
   */
  public Duration claimAhead() {
    Duration lead = Duration.ZERO;
    for (ThrottleProvider provider : providers) {
      Duration asked = provider.claimAhead();
      if (asked.compareTo(lead) > 0) {
        lead = asked;
      }
    }
    return lead.compareTo(MAX_CLAIM_AHEAD) > 0 ? MAX_CLAIM_AHEAD : lead;
  }

  /** The copy of a task a kind keeps while the task waits for it, or null. */
  public StoredTask waitingCopy(UUID taskId) {
    for (ThrottleProvider provider : providers) {
      StoredTask copy = provider.waitingCopy(taskId);
      if (copy != null) {
        return copy;
      }
    }
    return null;
  }

  /** A task cancelled while QUEUED: every kind gives up what it kept for it. */
  public boolean cancelled(UUID taskId) {
    boolean kept = false;
    for (ThrottleProvider provider : providers) {
      kept |= provider.cancelled(taskId);
    }
    return kept;
  }

  /** A waiting task got a new payload; returns when it is to start, or null if none kept it. */
  public Instant replaced(StoredTask task) {
    waiters.replaced(task);
    Instant start = null;
    for (ThrottleProvider provider : providers) {
      Instant at = provider.replaced(task);
      if (at != null && (start == null || at.isAfter(start))) {
        start = at;
      }
    }
    return start;
  }

  /** Whether one worker's batch of {@code handler}'s tasks shares their throttles' permits. */
  public boolean sharesPermits(HandlerInfo handler) {
    for (ThrottleProvider provider : providers) {
      if (provider.sharesPermits(handler)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a release of {@code resource} hands its waiters over to the releasing worker. */
  public boolean handsOverOnRelease(String resource) {
    for (ThrottleProvider provider : providers) {
      if (provider.handsOverOnRelease(resource)) {
        return true;
      }
    }
    return false;
  }
}
