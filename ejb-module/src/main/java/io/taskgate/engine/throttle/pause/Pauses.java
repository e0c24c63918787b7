package io.taskgate.engine.throttle.pause;

import io.taskgate.api.PauseScope;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.throttle.Pausing;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleProvider;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.Pause;
import io.taskgate.store.PauseStore;
import io.taskgate.store.TaskQueries;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The pauses ({@link Pausing}) as a kind of throttle: a {@link PauseThrottle} first on every task
 * type, the pauses in force read from the {@link PauseStore} before any task runs and again every
 * second, the tasks of a pause ended on another instance woken here.
 */
@ApplicationScoped
public class Pauses implements ThrottleProvider, Pausing {
  private static final Logger LOG = Logger.getLogger(Pauses.class.getName());

  /** How often every instance reads the pauses in force. */
  static final long REFRESH_MILLIS = 1000;

  @Resource ManagedScheduledExecutorService timers;

  private final PauseStore store;
  private final Throttles throttles;
  private final InstantSource clock;
  private final PauseThrottle throttle = new PauseThrottle(this);

  /** The pauses in force by {@link Pausing#resource}; replaced whole, read without a lock. */
  private volatile Map<String, Pause> inForce = Map.of();

  private ScheduledFuture<?> refreshing;
  private boolean refreshFailed;
  private long localChanges; // pauses and resumes made here: a read older than one is not applied

  /** For the CDI proxy. */
  protected Pauses() {
    this(null, null, null);
  }

  @Inject
  public Pauses(PauseStore store, Throttles throttles, InstantSource clock) {
    this.store = store;
    this.throttles = throttles;
    this.clock = clock;
  }

  @Override
  public List<? extends Throttle> throttlesOf(HandlerInfo handler) {
    return List.of(throttle);
  }

  /**
   * Reads the pauses in force before any task runs, then every second: the instances sharing the
   * database (in a data grid or with budgets of their own) see each other's pauses and resumes.
   */
  @Override
  public int start(Collection<HandlerInfo> handlers, TaskQueries queries, Payloads payloads) {
    refresh();
    if (!inForce.isEmpty()) {
      LOG.info(
          () ->
              "Taskgate holds the tasks of "
                  + inForce.values().stream().map(Pause::describe).sorted().toList()
                  + ": paused");
    }
    synchronized (this) {
      if (refreshing == null && timers != null) {
        refreshing =
            timers.scheduleWithFixedDelay(
                this::refresh, REFRESH_MILLIS, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
      }
    }
    return 0;
  }

  @PreDestroy
  synchronized void stop() {
    if (refreshing != null) {
      refreshing.cancel(false);
    }
  }

  /**
   * Reads the pauses in force from the store; the tasks waiting here for a pause that ended
   * (resumed on another instance) are woken. A store that does not answer leaves the pauses as they
   * were (logged once until it answers again).
   */
  public void refresh() {
    long changesBefore;
    synchronized (this) {
      changesBefore = localChanges;
    }
    List<Pause> read;
    try {
      read = store.pauses();
    } catch (RuntimeException e) {
      synchronized (this) {
        if (!refreshFailed) {
          refreshFailed = true;
          LOG.log(Level.WARNING, "Taskgate could not read the pauses; it keeps the last ones", e);
        }
      }
      return;
    }
    Map<String, Pause> now = new HashMap<>();
    read.forEach(p -> now.put(Pausing.resource(p.scope(), p.name()), p));
    Map<String, Pause> before;
    synchronized (this) {
      refreshFailed = false;
      if (localChanges != changesBefore) {
        return; // a pause or resume made here meanwhile: the next read has it
      }
      before = inForce;
      inForce = Map.copyOf(now);
    }
    before.keySet().stream().filter(r -> !now.containsKey(r)).forEach(this::wake);
  }

  @Override
  public List<Pause> pauses() {
    return inForce.values().stream()
        .sorted(java.util.Comparator.comparing(Pause::scope).thenComparing(Pause::name))
        .toList();
  }

  @Override
  public Optional<Pause> holding(String queue, String type, String rateKey) {
    Map<String, Pause> current = inForce;
    if (current.isEmpty()) {
      return Optional.empty();
    }
    Pause pause = current.get(Pausing.resource(PauseScope.QUEUE, queue));
    if (pause == null) {
      pause = current.get(Pausing.resource(PauseScope.TYPE, type));
    }
    if (pause == null && rateKey != null) {
      pause = current.get(Pausing.resource(PauseScope.KEY, rateKey));
    }
    return Optional.ofNullable(pause);
  }

  @Override
  public Pause pause(PauseScope scope, String name, String by, String reason) {
    check(scope, name);
    String why = reason == null || reason.isBlank() ? null : reason.strip();
    if (why != null && why.length() > Pause.MAX_REASON_LENGTH) {
      throw new IllegalArgumentException(
          "reason is "
              + why.length()
              + " characters long; at most "
              + Pause.MAX_REASON_LENGTH
              + " are kept");
    }
    // as stored: to the microsecond
    Pause pause = new Pause(scope, name, clock.instant().truncatedTo(ChronoUnit.MICROS), by, why);
    Optional<Pause> earlier = store.pause(pause);
    Pause inEffect = earlier.orElse(pause);
    put(inEffect);
    if (earlier.isEmpty()) {
      LOG.info(
          () ->
              "Taskgate paused the tasks of "
                  + pause.describe()
                  + " (by "
                  + by
                  + (why == null ? "" : ": " + why)
                  + ")");
    }
    return inEffect;
  }

  @Override
  public Optional<Pause> resume(PauseScope scope, String name, String by) {
    check(scope, name);
    Optional<Pause> ended = store.resume(scope, name, by, clock.instant());
    String resource = Pausing.resource(scope, name);
    synchronized (this) {
      Map<String, Pause> now = new HashMap<>(inForce);
      now.remove(resource);
      inForce = Map.copyOf(now);
      localChanges++;
    }
    ended.ifPresent(
        p -> LOG.info(() -> "Taskgate resumed the tasks of " + p.describe() + " (by " + by + ")"));
    wake(resource);
    return ended;
  }

  @Override
  public int waiting(PauseScope scope, String name) {
    return throttles.waiters().count(Pausing.resource(scope, name));
  }

  /** A task waiting for a pause was cancelled: it waits no more. */
  @Override
  public boolean cancelled(UUID taskId) {
    Optional<String> resource = throttles.waiters().waitsFor(taskId);
    return resource.isPresent()
        && resource.get().startsWith(RESOURCE_PREFIX)
        && throttles.waiters().forget(taskId);
  }

  private synchronized void put(Pause pause) {
    Map<String, Pause> now = new HashMap<>(inForce);
    now.put(Pausing.resource(pause.scope(), pause.name()), pause);
    inForce = Map.copyOf(now);
    localChanges++;
  }

  /**
   * Wakes every task waiting here for {@code resource}, and counts a release of it even when none
   * waits: a task that found the pause in force just before it ended tries again instead of waiting
   * ({@link io.taskgate.engine.throttle.ResourceWaiters#waitFor}).
   */
  private void wake(String resource) {
    int waiting = Math.max(1, throttles.waiters().count(resource));
    for (int i = 0; i < waiting; i++) {
      throttles.freed(Set.of(resource));
    }
  }

  private static void check(PauseScope scope, String name) {
    if (scope == null) {
      throw new IllegalArgumentException("scope is missing: use queue, type or key");
    }
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name is missing: the " + scope.label() + " to pause");
    }
    if (name.length() > Pause.MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(
          "name is "
              + name.length()
              + " characters long; at most "
              + Pause.MAX_NAME_LENGTH
              + " are allowed");
    }
  }
}
