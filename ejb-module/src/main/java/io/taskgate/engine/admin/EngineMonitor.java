package io.taskgate.engine.admin;

import io.taskgate.api.TaskTransition;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.ConsumerStart;
import io.taskgate.engine.TaskEngine;
import io.taskgate.engine.admin.dto.EngineStatus;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.queue.QueueSettings;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.schedule.OffTimer;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.store.TaskStore;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;

/**
 * The engine as the web module's monitoring sees it: its status, its task transitions as they
 * happen, a store check, periodic jobs run off the engine's timer threads, and the start signal of
 * the web module. With {@link TaskAdmin} and {@link ThrottleViews}, the only way the web module
 * reaches the engine.
 */
@ApplicationScoped
public class EngineMonitor {
  /**
   * The priority a web module's observer of its {@code @Initialized(ApplicationScoped.class)} event
   * uses before calling {@link #webModuleStarted}: after the application's own observers.
   */
  public static final int START_SIGNAL_PRIORITY = ConsumerStart.PRIORITY;

  @Inject TaskEngine engine;
  @Inject ConsumerStart consumers;
  @Inject TaskQueues queues;
  @Inject QueueSettings queueSettings;
  @Inject RateLimitReads rateLimits;
  @Inject EngineEvents events;
  @Inject TaskStore store;
  @Inject Ticker ticker;
  @Resource ManagedScheduledExecutorService timers;
  @Resource ManagedExecutorService executor;

  /** The engine's status now. */
  public EngineStatus status() {
    Map<String, Integer> depths = queues.depths();
    Map<String, Integer> workers = queues.workers();
    List<EngineStatus.QueueStatus> each = new ArrayList<>();
    queueSettings
        .queues()
        .forEach(
            (name, sizes) ->
                each.add(
                    new EngineStatus.QueueStatus(
                        name,
                        depths.getOrDefault(name, 0),
                        sizes.capacity(),
                        workers.getOrDefault(name, 0),
                        sizes.parallelism())));
    return new EngineStatus(
        engine.started().orElse(null),
        engine.lastSweep().orElse(null),
        engine.sweepEvery(),
        List.copyOf(each),
        rateLimits.parkedCount(),
        queues.held());
  }

  /** Tasks parked until their rate-limit slot (cheap: for a gauge). */
  public int parkedTasks() {
    return rateLimits.parkedCount();
  }

  /** Rate-limited tasks held on their queues (cheap: for a gauge). */
  public int heldTasks() {
    return queues.held();
  }

  /**
   * Tells {@code listener} every task transition from now on, on the thread that made it (keep it
   * short); returns what stops it.
   */
  public Runnable onTransition(Consumer<TaskTransition> listener) {
    return events.subscribe(TaskTransition.class, listener);
  }

  /**
   * Looks one task up by primary key in the store: how long that took; throws what the store threw
   * if it could not answer.
   */
  public Duration checkStore() {
    long start = ticker.nanos();
    store.find(UUID.randomUUID());
    return Duration.ofNanos(ticker.nanos() - start);
  }

  /**
   * Runs {@code job} first after {@code first}, then {@code period} after each run, on the engine's
   * executor, never on a timer thread (those fire parked tasks at their slots), skipping a run
   * while the previous one goes on; {@code name} names it in the logs. Cancel the answer to stop
   * it.
   */
  public ScheduledFuture<?> every(String name, Duration first, Duration period, Runnable job) {
    return OffTimer.every(timers, name, first, period, executor, job);
  }

  /** A web module (at {@code contextPath}) has initialised: the workers may start. */
  public void webModuleStarted(String contextPath) {
    consumers.webInitialised(contextPath);
  }
}
