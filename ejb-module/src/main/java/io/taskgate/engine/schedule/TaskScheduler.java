package io.taskgate.engine.schedule;

import io.taskgate.api.QueueFullException;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.queue.TaskQueues;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Brings stored tasks to their queue when they are due: at once, or later through the {@link
 * ManagedScheduledExecutorService}. It tracks every task id it holds (timer, channel or worker), so
 * that the periodic sweep never hands one task to the engine twice.
 *
 * <p>Tasks that wait (scheduled for later, or parked until their rate-limit slot) wait on a
 * timeline ordered by due time (parked tasks on a line of their own, handed over first), and the
 * executor holds a single alarm, at the earliest: when it goes off, the tasks that have come due go
 * to their queues (other tasks {@value #MAX_HANDOVER} at a time) and the alarm is set again for the
 * next. While the next is near (within {@link #NEAR_NANOS}) a 1 ms tick runs instead, so a key
 * paced a few ms apart costs no schedule per slot. Parking ten thousand tasks of a hot key
 * schedules nothing (their slots come after the alarm). Each schedule captures the caller's
 * context, which on Payara costs a class-path scan: a timer per task made parking a backlog the
 * most expensive step of the dispatch.
 */
@ApplicationScoped
public class TaskScheduler {
  private static final Logger LOG = Logger.getLogger(TaskScheduler.class.getName());

  @Resource ManagedScheduledExecutorService timers;

  @Inject TaskQueues queues;

  @Inject InstantSource clock;
  @Inject Ticker monotonic;

  private final Set<UUID> tracked = ConcurrentHashMap.newKeySet();

  private final Map<UUID, Timer> pending = new ConcurrentHashMap<>();
  private final ConcurrentSkipListSet<Timer> timeline = new ConcurrentSkipListSet<>();

  /**
   * Parked tasks waiting for their slot, and tasks claimed ahead waiting to start: a line of their
   * own, handed over first on every tick, so that a flood of other tasks does not hold a slot up.
   */
  private final ConcurrentSkipListSet<Timer> redemptions = new ConcurrentSkipListSet<>();

  /** At most this many other tasks go to their queues per tick or alarm; the tick goes on. */
  static final int MAX_HANDOVER = 256;

  private final AtomicLong arrivals = new AtomicLong();

  private ScheduledFuture<?> alarm; // guarded by this
  private long alarmAt = Long.MAX_VALUE; // nanoTime the alarm goes off, guarded by this
  private boolean closed; // guarded by this

  /**
   * The farthest ahead a task can wait on the timeline (due times are monotonic nanoseconds, which
   * run out about 292 years from their origin): the longest retry wait ({@link
   * io.taskgate.core.task.RetryPolicy#MAX_DELAY} doubled by jitter) and a day; a stored task due
   * later (stored by an earlier release) is failed when the engine comes across it.
   */
  public static final Duration MAX_AHEAD =
      io.taskgate.core.task.RetryPolicy.MAX_DELAY.multipliedBy(2).plusDays(1);

  /** What {@link #offer} did with a task. */
  public enum Offer {
    /** Now on its queue, or on the timeline until it is due. */
    HANDED,
    /** Already held here (timer, channel or worker): nothing done. */
    HELD,
    /** Due, but its queue is full: let go, the sweep brings it back when there is room. */
    QUEUE_FULL
  }

  /**
   * Hands the task to {@code queue} at {@code due} without waiting for room, as for tasks found in
   * the store (recovery, the sweep), which must never stall on a full queue.
   *
   * @throws UnschedulableTaskException if {@code due} is more than {@link #MAX_AHEAD} away
   */
  public Offer offer(String queue, UUID taskId, Instant due) {
    long waitNanos = waitNanos(taskId, due);
    if (!tracked.add(taskId)) {
      return Offer.HELD;
    }
    if (waitNanos > 0) {
      addTimer(waitNanos, taskId, queue, Timer.Lane.QUEUE);
      return Offer.HANDED;
    }
    try {
      queues.enqueue(queue, taskId, Duration.ZERO);
      return Offer.HANDED;
    } catch (QueueFullException e) {
      letGo(taskId);
      return Offer.QUEUE_FULL;
    }
  }

  /** Nanoseconds from now until {@code due} (0 if due), refusing what the timeline cannot hold. */
  private long waitNanos(UUID taskId, Instant due) {
    Duration wait = Duration.between(clock.instant(), due);
    if (wait.isNegative() || wait.isZero()) {
      return 0;
    }
    if (wait.compareTo(MAX_AHEAD) > 0) {
      throw new UnschedulableTaskException(
          "task "
              + taskId
              + " is scheduled at "
              + due
              + ", more than "
              + MAX_AHEAD.toDays()
              + " days ahead: the engine cannot wait that long");
    }
    return wait.toNanos();
  }

  /**
   * Hands the task to {@code queue} at {@code due}. Returns false if the task is already held.
   *
   * @throws QueueFullException when it is due now and the queue stays full (it is stored, the sweep
   *     brings it back)
   */
  public boolean submit(String queue, UUID taskId, Instant due) {
    return submit(queue, taskId, due, Timer.Lane.QUEUE);
  }

  /**
   * Hands a parked task to {@code queue}'s due lane at its rate-limit slot (see {@link
   * TaskQueues#enqueueDue}): it runs ahead of the queue's backlog. Returns false if the task is
   * already held.
   */
  public boolean redeemAt(String queue, UUID taskId, Instant slot) {
    return submit(queue, taskId, slot, Timer.Lane.DUE);
  }

  /**
   * Hands a task claimed ahead of its slot to {@code queue}'s start lane at {@code at} (see {@link
   * TaskQueues#enqueueStart}): it starts before anything else. Returns false if the task is already
   * held.
   */
  public boolean startAt(String queue, UUID taskId, Instant at) {
    return submit(queue, taskId, at, Timer.Lane.START);
  }

  private boolean submit(String queue, UUID taskId, Instant due, Timer.Lane lane) {
    long waitNanos = waitNanos(taskId, due);
    if (!tracked.add(taskId)) {
      return false;
    }
    place(queue, taskId, waitNanos, lane);
    return true;
  }

  /**
   * {@link #submit} for a task the caller holds already ({@link #hold}: the dispatcher, from before
   * its insert, so that the sweep never takes it first); one that cannot be handed over is let go.
   */
  public void submitHeld(String queue, UUID taskId, Instant due) {
    try {
      place(queue, taskId, waitNanos(taskId, due), Timer.Lane.QUEUE);
    } catch (RuntimeException e) {
      letGo(taskId);
      throw e;
    }
  }

  private void place(String queue, UUID taskId, long waitNanos, Timer.Lane lane) {
    if (waitNanos == 0) {
      switch (lane) {
        case DUE -> queues.enqueueDue(queue, taskId);
        case START -> queues.enqueueStart(queue, taskId);
        case QUEUE -> enqueueOrLetGo(queue, taskId);
      }
    } else {
      addTimer(waitNanos, taskId, queue, lane);
    }
  }

  private void addTimer(long waitNanos, UUID taskId, String queue, Timer.Lane lane) {
    Timer timer =
        new Timer(monotonic.nanos() + waitNanos, arrivals.incrementAndGet(), taskId, queue, lane);
    pending.put(taskId, timer);
    (lane == Timer.Lane.QUEUE ? timeline : redemptions).add(timer);
    alarmBy(timer.dueNanos());
  }

  /**
   * While the earliest waiting task is due within this, a tick every {@link #TICK_NANOS} hands the
   * due tasks over, instead of an alarm per due time: a key paced a few ms apart would otherwise
   * cost one schedule (one context capture) per slot.
   */
  static final long NEAR_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** The tick's period: what it may add to a due task's wait. */
  static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private ScheduledFuture<?> ticker; // guarded by this, set while ticking

  /**
   * Sets the alarm for {@code dueNanos} (or starts the tick) unless it already goes off by then.
   */
  private synchronized void alarmBy(long dueNanos) {
    if (closed || ticker != null || dueNanos >= alarmAt) {
      return; // a running tick sees every arrival within TICK_NANOS of its due time
    }
    if (alarm != null) {
      alarm.cancel(false);
      alarm = null;
    }
    long now = monotonic.nanos();
    if (dueNanos - now <= NEAR_NANOS) {
      alarmAt = Long.MIN_VALUE;
      ticker = timers.scheduleAtFixedRate(this::tick, 0, TICK_NANOS, TimeUnit.NANOSECONDS);
      return;
    }
    alarmAt = dueNanos;
    alarm = timers.schedule(this::alarmRings, dueNanos - now, TimeUnit.NANOSECONDS);
  }

  /**
   * Hands every task that has come due to its queue, then sets the alarm for the next one. While
   * this runs {@code alarmAt} is in the past, so no arrival sets another alarm: the last step sets
   * it for whatever is earliest by then.
   */
  private void alarmRings() {
    try {
      handOverDue(monotonic.nanos());
    } finally {
      synchronized (this) {
        alarm = null;
        alarmAt = Long.MAX_VALUE;
        Timer next = earliest();
        if (next != null) {
          alarmBy(next.dueNanos());
        }
      }
    }
  }

  /**
   * One tick: hands the due tasks over; once nothing is due within {@link #NEAR_NANOS}, stops
   * ticking and sets an alarm for the next task, if any.
   */
  private void tick() {
    try {
      handOverDue(monotonic.nanos());
    } finally {
      synchronized (this) {
        Timer next = earliest();
        if (ticker != null && (next == null || next.dueNanos() - monotonic.nanos() > NEAR_NANOS)) {
          ticker.cancel(false);
          ticker = null;
          alarmAt = Long.MAX_VALUE;
          if (next != null) {
            alarmBy(next.dueNanos());
          }
        }
      }
    }
  }

  private void handOverDue(long now) {
    handOver(redemptions, now, Integer.MAX_VALUE);
    handOver(timeline, now, MAX_HANDOVER);
  }

  private void handOver(ConcurrentSkipListSet<Timer> line, long now, int max) {
    Timer first;
    int handed = 0;
    while (handed < max && (first = line.ceiling(FIRST)) != null && first.dueNanos() <= now) {
      if (line.remove(first) && pending.remove(first.taskId(), first)) {
        deliver(first);
        handed++;
      }
    }
  }

  private Timer earliest() {
    Timer timer = timeline.ceiling(FIRST);
    Timer slot = redemptions.ceiling(FIRST);
    if (timer == null) {
      return slot;
    }
    return slot == null || timer.compareTo(slot) <= 0 ? timer : slot;
  }

  private static final Timer FIRST =
      new Timer(Long.MIN_VALUE, Long.MIN_VALUE, null, null, Timer.Lane.QUEUE);

  private void deliver(Timer timer) {
    try {
      switch (timer.lane()) {
        case DUE -> queues.enqueueDue(timer.queue(), timer.taskId());
        case START -> queues.enqueueStart(timer.queue(), timer.taskId());
          // never waits for room: a full queue would hold up every other task's alarm
        case QUEUE -> queues.enqueue(timer.queue(), timer.taskId(), Duration.ZERO);
      }
    } catch (QueueFullException e) {
      letGo(timer.taskId());
      LOG.warning(e.getMessage());
    } catch (RuntimeException e) {
      letGo(timer.taskId());
      LOG.log(
          Level.WARNING,
          "Task " + timer.taskId() + " could not go to queue " + timer.queue() + "; the sweep will",
          e);
    }
  }

  @PreDestroy
  synchronized void close() {
    closed = true;
    if (alarm != null) {
      alarm.cancel(false);
    }
    if (ticker != null) {
      ticker.cancel(false);
    }
  }

  /** Drops the timer of a task that has not come due. Returns whether there was one. */
  public boolean cancelTimer(UUID taskId) {
    Timer timer = pending.remove(taskId);
    if (timer == null) {
      return false;
    }
    (timer.lane() == Timer.Lane.QUEUE ? timeline : redemptions).remove(timer);
    tracked.remove(taskId);
    return true;
  }

  /** A worker or the dispatcher holds the task, outside any queue; false if already held. */
  public boolean hold(UUID taskId) {
    return tracked.add(taskId);
  }

  /** The engine is done with this task id (it ran, or a new submit follows). */
  public void release(UUID taskId) {
    tracked.remove(taskId);
  }

  private final AtomicBoolean lettingGo = new AtomicBoolean();

  /**
   * The engine lets go of a task that may still be due in the store (it could not be queued, or its
   * worker failed before its outcome was handled): the next sweep reads the store for it.
   */
  public void letGo(UUID taskId) {
    tracked.remove(taskId);
    lettingGo.set(true);
  }

  /** Whether the engine let go of a task since the last call (which clears it). */
  public boolean takeLetGo() {
    return lettingGo.getAndSet(false);
  }

  /** Whether the task is held in memory (timer, channel or worker). */
  public boolean holds(UUID taskId) {
    return tracked.contains(taskId);
  }

  /** Whether the task waits on a timer (scheduled for later, or parked until its slot). */
  public boolean hasTimer(UUID taskId) {
    return pending.containsKey(taskId);
  }

  /** Tasks waiting on a timer. */
  public int timersPending() {
    return pending.size();
  }

  private void enqueueOrLetGo(String queue, UUID taskId) {
    try {
      queues.enqueue(queue, taskId);
    } catch (QueueFullException e) {
      letGo(taskId);
      throw e;
    }
  }
}
