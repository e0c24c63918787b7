package io.taskgate.engine.throttle.jobs;

import io.taskgate.store.StoredTask;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * What each throttle did since this instance started, by throttle name ({@code
 * mutex:order-{orderId}}): attempts let run, made to wait, dropped; and how long each task waited,
 * from a throttle's first "not now" to its run, told to a listener (the metrics). Thread-safe.
 */
public final class ThrottleStats {
  /** What one throttle did. */
  public static final class Counters {
    final LongAdder acquired = new LongAdder();
    final LongAdder waited = new LongAdder();
    final LongAdder dropped = new LongAdder();

    public long acquired() {
      return acquired.sum();
    }

    public long waited() {
      return waited.sum();
    }

    public long dropped() {
      return dropped.sum();
    }
  }

  private final Map<String, Counters> counters = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Instant> waitingSince = new ConcurrentHashMap<>();
  private volatile BiConsumer<String, Duration> onWaited = (throttle, waited) -> {};
  private volatile BiConsumer<String, String> onTaskWaited = (queue, type) -> {};
  private volatile BiConsumer<String, String> onTaskDropped = (queue, type) -> {};

  /** {@code throttle} let task {@code taskId} run at {@code now}; reports how long it waited. */
  void acquired(String throttle, String taskId, Instant now) {
    counters(throttle).acquired.increment();
    Instant since = waitingSince.isEmpty() ? null : waitingSince.remove(taskId);
    if (since != null) {
      Duration waited = Duration.between(since, now);
      onWaited.accept(throttle, waited.isNegative() ? Duration.ZERO : waited);
    }
  }

  /**
   * {@code throttle} made {@code task} wait, at {@code now}; its first wait is told to the
   * per-minute counts.
   */
  void waited(String throttle, StoredTask task, Instant now) {
    counters(throttle).waited.increment();
    if (waitingSince.putIfAbsent(task.id().toString(), now) == null) {
      onTaskWaited.accept(task.queue(), task.type());
    }
  }

  /** {@code throttle} dropped {@code task}. */
  void dropped(String throttle, StoredTask task) {
    counters(throttle).dropped.increment();
    waitingSince.remove(task.id().toString());
    onTaskDropped.accept(task.queue(), task.type());
  }

  /**
   * Who is told the queue and type of each task a throttle makes wait (once per wait, at its first
   * refusal) and of each it drops.
   */
  public void onTask(BiConsumer<String, String> waited, BiConsumer<String, String> dropped) {
    this.onTaskWaited = waited;
    this.onTaskDropped = dropped;
  }

  /** Task {@code taskId} ended: it waits no more. */
  void forget(String taskId) {
    waitingSince.remove(taskId);
  }

  /** Who is told how long each task waited for a throttle before it let it run. */
  public void onWaited(BiConsumer<String, Duration> onWaited) {
    this.onWaited = onWaited;
  }

  private Counters counters(String throttle) {
    return counters.computeIfAbsent(throttle, r -> new Counters());
  }

  /** What each throttle did, by throttle name. */
  public Map<String, Counters> counters() {
    return Map.copyOf(counters);
  }
}
