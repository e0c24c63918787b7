package io.taskgate.engine.throttle.jobs;

import static io.taskgate.engine.event.MinuteCounts.Count.THROTTLE_DROPPED;
import static io.taskgate.engine.event.MinuteCounts.Count.THROTTLE_WAITED;

import io.taskgate.api.TaskTransition;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.core.throttle.LocalThrottlerState;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.event.Counted;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.handler.ThrottlerSpec;
import io.taskgate.engine.handler.ThrottlingSpec;
import io.taskgate.engine.throttle.JobThrottlerReads.Resolved;
import io.taskgate.engine.throttle.ResourceWaiters;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.ThrottlerStore;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.Config;

/**
 * The job throttlers of this application: builds each task type's {@link JobThrottle}s (one class
 * per kind, {@link JobThrottleKinds}), keeps their state ({@link ThrottlerState}) and the
 * definitions of semaphores and windows ({@link JobDefinitions}), gives back what a task holds when
 * it reaches a final state whatever the path (cancelled while waiting for its retry, say), and
 * keeps the tasks waiting for a resource ({@link #waiters}).
 */
@ApplicationScoped
public class JobThrottlers {
  @Resource ManagedExecutorService executor;

  private final InstantSource clock;
  private final Config config;
  private final EngineEvents events;
  private final Throttles throttles;
  private final JobDefinitions definitions;
  private final WindowCountLog counts;
  private final AtomicBoolean subscribed = new AtomicBoolean();
  private final ThrottleStats stats = new ThrottleStats();
  private final WindowWaits windowWaits = new WindowWaits();
  private volatile ThrottlerState state = new LocalThrottlerState();
  private JobThrottleSettings settings = JobThrottleSettings.DEFAULTS;

  /** For the CDI proxy. */
  protected JobThrottlers() {
    this(null, null, null, null, null);
  }

  /**
   * The throttlers whose definitions and window counts are in {@code store}, their waiters woken
   * through {@code throttles}, reporting the tasks they make wait or drop to {@code events}; {@code
   * config} may be null outside the container (then {@link #configure} sets the defaults).
   */
  @Inject
  public JobThrottlers(
      ThrottlerStore store,
      InstantSource clock,
      Config config,
      EngineEvents events,
      Throttles throttles) {
    this.clock = clock;
    this.config = config;
    this.events = events;
    this.throttles = throttles;
    this.definitions = new JobDefinitions(store, clock, () -> executor);
    this.counts = new WindowCountLog(store);
    if (events != null) {
      stats.onTask(
          (queue, type) ->
              events.publish(new Counted(queue, type, THROTTLE_WAITED, clock.instant())),
          (queue, type) ->
              events.publish(new Counted(queue, type, THROTTLE_DROPPED, clock.instant())));
    }
  }

  @PostConstruct
  void readSettings() {
    settings = JobThrottleSettings.of(config);
  }

  /**
   * The global defaults: {@code action} (WAIT or DROP), {@code maxWait} (null: none), whether
   * throttles are {@code strict}, and how often a waiting task looks again by itself.
   */
  void configure(ThrottlingAction action, Duration maxWait, boolean strict, Duration recheck) {
    this.settings = new JobThrottleSettings(action, maxWait, strict, recheck);
  }

  /** {@code spec} with the global defaults applied. */
  public Resolved resolve(ThrottlingSpec spec) {
    return settings.resolve(spec);
  }

  /** The throttles of {@code handler}'s task type; empty if it names none. */
  public List<Throttle> throttlesOf(HandlerInfo handler) {
    if (handler.throttling().isEmpty()) {
      return List.of();
    }
    ThrottlingSpec spec = handler.throttling().get();
    Resolved resolved = resolve(spec);
    if (spec.holds()) {
      subscribe();
    }
    List<Throttle> throttles = new ArrayList<>();
    for (ThrottlerSpec throttler : spec.throttlers()) {
      throttles.add(
          JobThrottleKinds.make(
              new JobThrottle.Setup(throttler, handler.beanClass().getName(), this, resolved)));
    }
    return throttles;
  }

  /** Task {@code taskId} waits for window {@code resource} to open (or no longer does). */
  void retrying(String resource, String taskId, boolean waits) {
    windowWaits.waits(resource, taskId, waits);
  }

  /** The tasks waiting for window {@code resource} to open. */
  public Set<String> retrying(String resource) {
    return windowWaits.of(resource);
  }

  /** The tasks waiting for a window to open. */
  WindowWaits windowWaits() {
    return windowWaits;
  }

  /**
   * Whether the tasks of {@code handler} that one worker runs in a batch share one permit of a
   * semaphore (see {@link SemaphoreThrottle#leased}): relaxed throttling, no rate limit.
   */
  public boolean sharesPermits(HandlerInfo handler) {
    return handler.throttling().isPresent()
        && !strict(handler.throttling().get())
        && handler.gate().isEmpty();
  }

  boolean strict(ThrottlingSpec spec) {
    return settings.strict(spec);
  }

  /**
   * Takes again, before any task runs, the mutexes and semaphores of the tasks that hold them in
   * the store ({@link RetakenHolds}), and the window counts, unless the state kept them (the data
   * grid's, other members up). Returns how many holds it took.
   */
  public int rebuild(Collection<HandlerInfo> handlers, TaskQueries queries, Payloads payloads) {
    boolean needed = state.rebuildNeeded();
    counts.restore(definitions.list(), clock.instant().toEpochMilli(), needed, state);
    if (!needed) {
      return 0;
    }
    int held = new RetakenHolds(this).rebuild(handlers, queries, payloads);
    if (held > 0) {
      subscribe();
    }
    return held;
  }

  /** A start was counted in (or given back to) a window: {@link WindowCountLog#counted}. */
  void counted(String resource, String sub, long bucketStart, int delta) {
    counts.counted(resource, sub, bucketStart, delta);
  }

  /** Listens for tasks reaching a final state, once. */
  private void subscribe() {
    if (subscribed.compareAndSet(false, true)) {
      events.subscribe(
          TaskTransition.class,
          t -> {
            if (t.to() != null && t.to().terminal()) {
              ended(t.taskId());
            }
          });
    }
  }

  /** The tasks waiting for a resource to be released. */
  public ResourceWaiters waiters() {
    return throttles.waiters();
  }

  /**
   * Task {@code taskId} reached a final state: it gives back whatever it still holds (a strict
   * permit kept across retries, one re-entered after a crash) and waits for nothing.
   */
  public void ended(UUID taskId) {
    waiters().forget(taskId);
    stats.forget(taskId.toString());
    windowWaits.forget(taskId);
    Set<String> freed = state.releaseAll(taskId.toString());
    throttles.freed(freed);
  }

  /** Semaphore {@code resource} grew by {@code permits}: see {@link SemaphoreGrowth}. */
  void grew(String resource, int permits) {
    SemaphoreGrowth.wake(executor, resource, permits, this::wakeHere, state);
  }

  /** Wakes at most {@code permits} of the tasks waiting here for {@code resource}; how many. */
  int wakeHere(String resource, int permits) {
    return SemaphoreGrowth.wakeHere(waiters(), throttles::freed, resource, permits);
  }

  /** Where the throttlers' state is. */
  public ThrottlerState state() {
    return state;
  }

  /**
   * Uses {@code state} from now on (the data grid's, in a cluster); what it frees outside this
   * instance's attempts wakes the tasks waiting here.
   */
  public void useState(ThrottlerState state) {
    this.state = state;
    state.onFreedElsewhere(throttles::freed);
    state.onGrownElsewhere(this::wakeHere);
  }

  Duration recheck() {
    return settings.recheck();
  }

  /** The definitions of semaphores and windows. */
  JobDefinitions definitions() {
    return definitions;
  }

  /** What each throttle did since this instance started. */
  public ThrottleStats stats() {
    return stats;
  }
}
