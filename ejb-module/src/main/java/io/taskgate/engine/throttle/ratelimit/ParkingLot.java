package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.event.LogThrottle;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.engine.throttle.ParkedTask;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The tasks waiting for their rate-limit slot on a timer, with their reservation: nothing is
 * written for them, they stay QUEUED and hold no worker. At most {@code
 * taskgate.rate-limit.max-parked-tasks} are parked; beyond that, a task that would be parked is
 * held on its queue ({@link #full}) until parked tasks leave ({@link #left}) and make room.
 */
@ApplicationScoped
public class ParkingLot {
  private static final Logger LOG = Logger.getLogger(ParkingLot.class.getName());

  private final KeyedRateLimiter limiter;
  private final GateSettings gateSettings;
  private final TaskQueues queues;
  private final TaskScheduler scheduler;

  private final Map<UUID, ParkedTask> parked = new ConcurrentHashMap<>();

  private final LogThrottle fullWarnings;

  /** For the CDI proxy. */
  protected ParkingLot() {
    this(null, null, null, null, null);
  }

  /** The lot of {@code gateSettings}' size; its full-lot warnings timed by {@code ticker}. */
  @Inject
  ParkingLot(
      KeyedRateLimiter limiter,
      GateSettings gateSettings,
      TaskQueues queues,
      TaskScheduler scheduler,
      Ticker ticker) {
    this.limiter = limiter;
    this.gateSettings = gateSettings;
    this.queues = queues;
    this.scheduler = scheduler;
    // a lambda, not ticker::nanos: the proxy's constructor passes a null ticker
    this.fullWarnings = new LogThrottle(Duration.ofMinutes(1), () -> ticker.nanos());
  }

  /** Parks a task until its slot; returns whether it was not parked before. */
  boolean park(UUID taskId, ParkedTask reservation) {
    return parked.put(taskId, reservation) == null;
  }

  /** The parked task with this id, or null. */
  public ParkedTask get(UUID taskId) {
    return parked.get(taskId);
  }

  public boolean contains(UUID taskId) {
    return parked.containsKey(taskId);
  }

  /**
   * Whether a task that would be parked must wait on its queue instead, because {@code
   * taskgate.rate-limit.max-parked-tasks} tasks are parked already. A task already parked (its slot
   * has come) and a task its key can run at once are never held. The cap is checked without a lock,
   * so concurrent workers may overshoot it by a few.
   */
  boolean full(RateLimitScope scope, String key, UUID taskId, Instant now) {
    if (parked.size() < gateSettings.maxParkedTasks() || parked.containsKey(taskId)) {
      return false;
    }
    RateLimitDecision peek = limiter.peek(scope, key, EpochNanos.of(now));
    if (peek.outcome() != RateLimitDecision.Outcome.DEFERRED) {
      return false;
    }
    long held = fullWarnings.admit("parking");
    if (held >= 0) {
      LOG.warning(
          "Taskgate's parking lot is full ("
              + parked.size()
              + " tasks wait for their rate-limit slot, taskgate.rate-limit.max-parked-tasks = "
              + gateSettings.maxParkedTasks()
              + "): rate-limited tasks wait on their queues until it has room"
              + LogThrottle.heldBack(held));
    }
    return true;
  }

  /**
   * A task left the parking lot (its slot has come, or it ended): held tasks may take its place.
   */
  public void left(UUID taskId) {
    if (parked.remove(taskId) != null) {
      int room = gateSettings.maxParkedTasks() - parked.size();
      if (room > 0) {
        queues.releaseHeld(room);
      }
    }
  }

  /**
   * Forgets a cancelled task that waits in memory: parked (its reservation is released) or held on
   * its queue. Returns whether it was either.
   */
  public boolean unpark(UUID taskId) {
    ParkedTask was = parked.get(taskId);
    if (was != null) {
      left(taskId);
      release(was.scope(), was.key(), taskId);
      return true;
    }
    if (queues.dropHeld(taskId)) {
      scheduler.release(taskId);
      return true;
    }
    return false;
  }

  /** Gives up a task's reservation; a limiter failure is logged, not thrown. */
  public void release(RateLimitScope scope, String key, UUID taskId) {
    try {
      limiter.release(scope, key, taskId);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate could not release the reservation of task " + taskId, e);
    }
  }

  /**
   * A parked task got a new payload (same task key dispatched again): its redemption uses it.
   * Returns its slot, or null if it is not parked.
   */
  public Instant replaced(StoredTask task) {
    ParkedTask now =
        parked.computeIfPresent(
            task.id(), (id, was) -> new ParkedTask(was.scope(), was.key(), was.slot(), task));
    return now == null ? null : now.slot();
  }

  /** The tasks parked until their slot, by id (a copy). */
  public Map<UUID, ParkedTask> parked() {
    return Map.copyOf(parked);
  }

  /** The tasks parked until their slot, as they are now (a live view, no copy). */
  public Collection<ParkedTask> parkedTasks() {
    return Collections.unmodifiableCollection(parked.values());
  }

  /** How many tasks are parked. */
  public int parkedCount() {
    return parked.size();
  }

  /** What is parked, by key, for this instance's heartbeat (its peers' views): one walk. */
  public ParkedSummary summary() {
    Map<List<String>, ParkedSummary.Key> keys = new HashMap<>();
    for (ParkedTask task : parked.values()) {
      keys.merge(
          List.of(task.scope().name(), task.key()),
          new ParkedSummary.Key(task.scope().name(), task.key(), 1, task.slot()),
          (a, b) ->
              new ParkedSummary.Key(
                  a.scope(),
                  a.key(),
                  a.tasks() + 1,
                  a.latestSlot().isAfter(b.latestSlot()) ? a.latestSlot() : b.latestSlot()));
    }
    return ParkedSummary.of(List.copyOf(keys.values()));
  }

  /** The parked task with this id, if it is parked. */
  public Optional<ParkedTask> parkedTask(UUID taskId) {
    return Optional.ofNullable(parked.get(taskId));
  }
}
