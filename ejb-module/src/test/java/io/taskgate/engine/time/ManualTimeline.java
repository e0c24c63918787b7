package io.taskgate.engine.time;

import io.taskgate.core.time.Ticker;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.PriorityQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A timeline a test advances by hand: a wall clock and a monotonic clock that move together, and a
 * {@link ManagedScheduledExecutorService} whose alarms go off on the test's thread, in order, each
 * with the clocks set to its due time, as the test moves time past them ({@link #advance}). Nothing
 * runs by itself and nothing sleeps. Not thread-safe: one test thread drives it.
 */
public final class ManualTimeline {
  private final SettableClock clock;
  private final ManualTicker ticker = new ManualTicker();
  private final PriorityQueue<Alarm> alarms = new PriorityQueue<>();
  private final ManagedScheduledExecutorService timers;
  private long sequence;
  private int scheduled;

  public ManualTimeline(Instant start) {
    clock = new SettableClock(start);
    timers =
        (ManagedScheduledExecutorService)
            Proxy.newProxyInstance(
                ManagedScheduledExecutorService.class.getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class},
                (proxy, method, args) ->
                    switch (method.getName()) {
                      case "execute" -> {
                        add((Runnable) args[0], 0, 0, TimeUnit.NANOSECONDS); // at the next advance
                        yield null;
                      }
                      case "schedule" ->
                          add((Runnable) args[0], (Long) args[1], 0, (TimeUnit) args[2]);
                      case "scheduleAtFixedRate", "scheduleWithFixedDelay" ->
                          add(
                              (Runnable) args[0],
                              (Long) args[1],
                              (Long) args[2],
                              (TimeUnit) args[3]);
                      default -> throw new AssertionError("not expected here: " + method);
                    });
  }

  /** The wall clock. */
  public InstantSource clock() {
    return clock;
  }

  /** The monotonic clock. */
  public Ticker ticker() {
    return ticker;
  }

  /** The executor whose alarms this timeline sets off. */
  public ManagedScheduledExecutorService timers() {
    return timers;
  }

  /** Alarms set and not cancelled (a periodic one counts once). */
  public int pending() {
    return (int) alarms.stream().filter(a -> !a.cancelled).count();
  }

  /** How many alarms have been set since the start (a periodic one counts once). */
  public int scheduled() {
    return scheduled;
  }

  /**
   * Moves both clocks forward by {@code by}, setting off every alarm due by then in the order of
   * their due times, each with the clocks at that time; a periodic alarm goes off once per period.
   */
  public void advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("the timeline only moves forward: " + by);
    }
    long target = ticker.nanos() + by.toNanos();
    Alarm next;
    while ((next = alarms.peek()) != null && next.dueNanos <= target) {
      alarms.poll();
      if (next.cancelled) {
        continue;
      }
      moveTo(next.dueNanos);
      if (next.periodNanos > 0) {
        next.dueNanos += next.periodNanos;
        next.order = ++sequence;
        alarms.add(next);
      } else {
        next.done = true;
      }
      next.task.run();
    }
    moveTo(target);
  }

  private void moveTo(long nanos) {
    long by = nanos - ticker.nanos();
    if (by > 0) {
      ticker.advance(Duration.ofNanos(by));
      clock.advance(Duration.ofNanos(by));
    }
  }

  private Alarm add(Runnable task, long delay, long period, TimeUnit unit) {
    Alarm alarm =
        new Alarm(
            task,
            ticker.nanos() + unit.toNanos(Math.max(0, delay)),
            unit.toNanos(period),
            ++sequence);
    alarms.add(alarm);
    scheduled++;
    return alarm;
  }

  private final class Alarm implements ScheduledFuture<Object> {
    final Runnable task;
    final long periodNanos;
    long dueNanos;
    long order;
    boolean cancelled;
    boolean done;

    Alarm(Runnable task, long dueNanos, long periodNanos, long order) {
      this.task = task;
      this.dueNanos = dueNanos;
      this.periodNanos = periodNanos;
      this.order = order;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(dueNanos - ticker.nanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      Alarm that = (Alarm) other;
      int byDue = Long.compare(dueNanos, that.dueNanos);
      return byDue != 0 ? byDue : Long.compare(order, that.order);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      if (done || cancelled) {
        return false;
      }
      cancelled = true;
      return true;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean isDone() {
      return done || cancelled;
    }

    @Override
    public Object get() {
      return null;
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      return null;
    }
  }
}
