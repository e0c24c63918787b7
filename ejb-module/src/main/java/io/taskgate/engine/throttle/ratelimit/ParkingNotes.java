package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.limit.Limit;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.event.LogThrottle;
import io.taskgate.engine.schedule.OffTimer;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskNote;
import io.taskgate.store.TaskStore;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Writes into a task's audit that the gate parked it, and until when: "Parked until
 * 2026-11-27T01:39:00.250Z, the next free slot of key acme (15 per 1 min, burst 1)"; only when
 * {@value #ENABLED_KEY} is true (default false: a deferral writes nothing, and the task's view
 * shows the slot it is parked until from the parking lot, in memory), and only at audit level FULL.
 * The notes are written in batches by a timer every {@link #FLUSH_EVERY}, off the gate's path, at
 * most {@link #BATCHES_PER_FLUSH} batches of {@link #BATCH} a tick (all of them when the
 * application stops); at most {@link #MAX_PENDING} wait, and a note that cannot be written is
 * dropped with a warning (the parking itself does not depend on it). A task parked again after a
 * restart gets a note again.
 */
@ApplicationScoped
public class ParkingNotes {
  private static final Logger LOG = Logger.getLogger(ParkingNotes.class.getName());

  /** The MicroProfile Config key that turns the notes on. */
  public static final String ENABLED_KEY = "taskgate.audit.parking-notes";

  /** How often pending notes are written. */
  static final Duration FLUSH_EVERY = Duration.ofSeconds(1);

  /** Notes waiting at most; more are dropped (and counted in a warning). */
  static final int MAX_PENDING = 100_000;

  /** Notes written in one batch at most. */
  static final int BATCH = 1_000;

  /**
   * Batches written by one timer tick (the rest wait for the next ticks, unless more than half of
   * {@link #MAX_PENDING} wait): a burst of 10,000 parkings is noted over 5 s rather than in one go
   * beside the other keys' claims.
   */
  static final int BATCHES_PER_FLUSH = 2;

  private final TaskStore store;
  private final Ticker ticker;
  private final boolean enabled;

  // @Resource cannot annotate a constructor parameter: the container's executors stay fields
  @Resource ManagedScheduledExecutorService timers;
  @Resource ManagedExecutorService executor;

  private final ConcurrentLinkedQueue<Parking> pending = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();
  private LogThrottle warnings;
  private ScheduledFuture<?> flusher;

  /** For the CDI proxy. */
  protected ParkingNotes() {
    this(null, null, false);
  }

  /**
   * Notes written to {@code store} if {@code enabled} (otherwise none is kept), warnings timed by
   * {@code ticker}.
   */
  @Inject
  ParkingNotes(
      TaskStore store,
      Ticker ticker,
      @ConfigProperty(name = ENABLED_KEY, defaultValue = "false") boolean enabled) {
    this.store = store;
    this.ticker = ticker;
    this.enabled = enabled;
  }

  @PostConstruct
  void start() {
    warnings = new LogThrottle(Duration.ofMinutes(1), ticker::nanos);
    if (enabled) {
      flusher = OffTimer.every(timers, "parking notes", FLUSH_EVERY, executor, this::flush);
    }
  }

  @PreDestroy
  void stop() {
    if (flusher != null) {
      flusher.cancel(false);
    }
    flush(Integer.MAX_VALUE);
  }

  /**
   * {@code task} was parked at {@code now} until {@code slot}, the next free slot of {@code key}
   * under {@code policy}; the note's text is made when it is written, off the gate's path. Nothing
   * when the notes are off.
   */
  public void parked(
      StoredTask task, String key, Instant slot, RateLimitPolicy policy, Instant now) {
    parked(task, key, slot, policy, now, 1);
  }

  /**
   * {@link #parked(StoredTask, String, Instant, RateLimitPolicy, Instant)} of {@code cost} units.
   */
  public void parked(
      StoredTask task, String key, Instant slot, RateLimitPolicy policy, Instant now, int cost) {
    if (!enabled) {
      return;
    }
    if (size.incrementAndGet() > MAX_PENDING) {
      size.decrementAndGet();
      dropped.incrementAndGet();
      return;
    }
    pending.add(
        new Parking(task.id(), task.version(), task.attempt(), now, slot, key, policy, cost));
  }

  /** A parking not noted yet. */
  private record Parking(
      UUID taskId,
      long version,
      int attempt,
      Instant at,
      Instant slot,
      String key,
      RateLimitPolicy policy,
      int cost) {
    TaskNote note() {
      return new TaskNote(
          taskId,
          version,
          at,
          attempt,
          "Parked until "
              + slot.truncatedTo(ChronoUnit.MILLIS)
              + ", the next free slot of key "
              + key
              + (cost == 1 ? "" : " for its " + cost + " units")
              + " ("
              + Limit.of(policy).describe()
              + ")");
    }
  }

  /** Notes not written yet. */
  int pending() {
    return size.get();
  }

  /** Writes the pending notes, {@link #BATCHES_PER_FLUSH} batches at most. The timer calls it. */
  void flush() {
    flush(BATCHES_PER_FLUSH);
  }

  /**
   * Writes the pending notes, a batch at a time, {@code batches} at most, and more while over half
   * of {@link #MAX_PENDING} wait (rather than drop any).
   */
  void flush(int batches) {
    for (int written = 0; written < batches || size.get() > MAX_PENDING / 2; written++) {
      List<TaskNote> batch = new ArrayList<>();
      Parking parking;
      while (batch.size() < BATCH && (parking = pending.poll()) != null) {
        batch.add(parking.note());
      }
      size.addAndGet(-batch.size());
      if (batch.isEmpty()) {
        break;
      }
      try {
        store.note(batch);
      } catch (RuntimeException e) {
        long held = warnings.admit("write");
        if (held >= 0) {
          LOG.log(
              Level.WARNING,
              "Taskgate could not write "
                  + batch.size()
                  + " parking note(s) into the tasks' audit; they are dropped (the tasks stay"
                  + " parked)"
                  + LogThrottle.heldBack(held),
              e);
        }
      }
    }
    long lost = dropped.getAndSet(0);
    if (lost > 0 && warnings.admit("dropped") >= 0) {
      LOG.warning(
          lost
              + " parking note(s) were not written into the tasks' audit: more than "
              + MAX_PENDING
              + " were waiting");
    }
  }
}
