package io.taskgate.it.engine;

import io.taskgate.api.Backoff;
import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Rate-limited test tasks and their handlers. Each records when its handler started. */
public final class GatedTasks {
  private GatedTasks() {}

  /** A task whose {@code key} component is its throttling key. */
  public interface Keyed extends RateLimitedTask {
    /** The throttling key. */
    String key();

    @Override
    default String rateLimitKey() {
      return key();
    }
  }

  /** A task of {@code cost} units of its key's budget (10 a second, burst 5). */
  public record Weighted(String key, String id, int cost) implements Keyed {
    @Override
    public int rateLimitCost() {
      return cost;
    }
  }

  /** When each weighted task's handler started, by task id. */
  public static final Map<String, java.time.Instant> WEIGHTED_STARTS = new ConcurrentHashMap<>();

  /** When each task's handler started ({@code System.nanoTime()}), by task id. */
  public static final Map<String, Long> STARTS = new ConcurrentHashMap<>();

  /** The slot each task was parked until, as its handler saw it, and when it started. */
  public static final Map<String, java.time.Instant[]> THROTTLED = new ConcurrentHashMap<>();

  /** 5 per second, burst 5: a slot every 200 ms once the burst is spent. */
  public record Paced(String key, String id) implements Keyed {}

  /** 5 per second, burst 1: one every 200 ms from the start. */
  public record Spaced(String key, String id) implements Keyed {}

  /** 5 per second, starting empty: the first runs at once, the next ones 200 ms apart. */
  public record Cold(String key, String id) implements Keyed {}

  /** 1 per 10 s on the one-worker "gated" queue: a second task of a key parks for 10 s. */
  public record Hot(String key, String id) implements Keyed {}

  /** 1 per second: a second task of a key parks for about a second. */
  public record Slotted(String key, String id) implements Keyed {}

  /** Recurring, 1 per hour with no horizon: every occurrence after the first is rejected. */
  public record Skipping(String key, String id) implements Keyed {}

  /** Recurring, 1 per 10 s: the second occurrence's slot lies past a short runUntil. */
  public record Bounded(String key, String id) implements Keyed {}

  /** 1 per second; its handler runs for {@code millis}. */
  public record Lingering(String key, String id, long millis) implements Keyed {}

  /** Not rate limited, on the one-worker "gated" queue. */
  public record Free(String id) implements io.taskgate.api.Task {}

  /** 1 per hour, discarding: a second task of a key is rejected. */
  public record Discarded(String key, String id) implements Keyed {}

  /** 1 per hour with a one-minute horizon: a second task of a key is beyond it. */
  public record Distant(String key, String id) implements Keyed {}

  /** 1 per second; fails its first attempt, retried after 50 ms: the retry waits for budget. */
  public record FlakyPaced(String key, String id) implements Keyed {}

  /**
   * 1 per 2 seconds, a 500 ms timeout per attempt: the first attempt fails at once, its retry parks
   * about 2 s for the key's next slot, then runs in a few milliseconds.
   */
  public record TimedPaced(String key, String id) implements Keyed {}

  /** 1 per hour, retries not throttled: the first attempt fails, its retry runs 50 ms later. */
  public record FreeRetry(String key, String id) implements Keyed {}

  /** 2 per 5 seconds, burst 1 (a slot every 2.5 s): slower than a 1 s series, faster than 4 s. */
  public record Rhythmic(String key, String id) implements Keyed {}

  /**
   * Each run of a {@link Rhythmic} task, by task id: when it was due, the slot it was parked until
   * (null if it ran at once), when it started.
   */
  public static final Map<String, java.util.List<java.time.Instant[]>> RUNS =
      new ConcurrentHashMap<>();

  /**
   * 5 per second, burst 1, on the one-worker "gated" queue: while that worker is busy, the key's
   * slots pass and its tasks start late.
   */
  public record Crowded(String key, String id) implements Keyed {}

  /** Not rate limited, on the one-worker "gated" queue; its handler runs for {@code millis}. */
  public record Busy(String id, long millis) implements io.taskgate.api.Task {}

  /** Records start and end; nothing else. */
  abstract static class Recording<T extends io.taskgate.api.Task> implements Handler<T> {
    @Inject Probe probe;

    abstract String id(T task);

    @Override
    public void handle(T task, TaskContext context) throws Exception {
      STARTS.putIfAbsent(id(task), System.nanoTime());
      context
          .throttledUntil()
          .ifPresent(
              slot ->
                  THROTTLED.put(id(task), new java.time.Instant[] {slot, java.time.Instant.now()}));
      probe.record(id(task), "handle");
    }

    @Override
    public void onError(T task, TaskContext context, Throwable error) {
      probe.record(
          id(task), "error:" + error.getClass().getSimpleName() + ":" + error.getMessage());
    }
  }

  @TaskHandler
  @RateLimit(permits = 5, period = "PT1S")
  public static class PacedHandler extends Recording<Paced> {
    @Override
    String id(Paced task) {
      return task.id();
    }
  }

  @TaskHandler
  @RateLimit(permits = 5, period = "PT1S", burst = 1)
  public static class SpacedHandler extends Recording<Spaced> {
    @Override
    String id(Spaced task) {
      return task.id();
    }
  }

  @TaskHandler
  @RateLimit(permits = 5, period = "PT1S", startEmpty = true)
  public static class ColdHandler extends Recording<Cold> {
    @Override
    String id(Cold task) {
      return task.id();
    }
  }

  @TaskHandler(queue = "gated")
  @RateLimit(permits = 1, period = "PT10S")
  public static class HotHandler extends Recording<Hot> {
    @Override
    String id(Hot task) {
      return task.id();
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT1S")
  public static class SlottedHandler extends Recording<Slotted> {
    @Override
    String id(Slotted task) {
      return task.id();
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT1H", maxReservationHorizon = "PT0S")
  public static class SkippingHandler extends Recording<Skipping> {
    @Override
    String id(Skipping task) {
      return task.id();
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT10S")
  public static class BoundedHandler extends Recording<Bounded> {
    @Override
    String id(Bounded task) {
      return task.id();
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT1S")
  public static class LingeringHandler extends Recording<Lingering> {
    @Override
    String id(Lingering task) {
      return task.id();
    }

    @Override
    public void handle(Lingering task, TaskContext context) throws Exception {
      super.handle(task, context);
      Thread.sleep(task.millis());
    }
  }

  @TaskHandler
  @RateLimit(permits = 10, period = "PT1S", burst = 5)
  public static class WeightedHandler extends Recording<Weighted> {
    @Override
    public void handle(Weighted task, TaskContext context) throws Exception {
      WEIGHTED_STARTS.putIfAbsent(task.id(), java.time.Instant.now());
      super.handle(task, context);
    }

    @Override
    String id(Weighted task) {
      return task.id();
    }
  }

  @TaskHandler(queue = "gated")
  @RateLimit(permits = 5, period = "PT1S", burst = 1)
  public static class CrowdedHandler extends Recording<Crowded> {
    @Override
    String id(Crowded task) {
      return task.id();
    }
  }

  @TaskHandler(queue = "gated")
  public static class BusyHandler extends Recording<Busy> {
    @Override
    String id(Busy task) {
      return task.id();
    }

    @Override
    public void handle(Busy task, TaskContext context) throws Exception {
      super.handle(task, context);
      Thread.sleep(task.millis());
    }
  }

  @TaskHandler(queue = "gated")
  public static class FreeHandler extends Recording<Free> {
    @Override
    String id(Free task) {
      return task.id();
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT1H", overflow = RateLimit.Overflow.DISCARD)
  public static class DiscardedHandler extends Recording<Discarded> {
    @Override
    String id(Discarded task) {
      return task.id();
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT1H", maxReservationHorizon = "PT1M")
  public static class DistantHandler extends Recording<Distant> {
    @Override
    String id(Distant task) {
      return task.id();
    }
  }

  @TaskHandler
  @RateLimit(permits = 2, period = "PT5S", burst = 1)
  public static class RhythmicHandler implements Handler<Rhythmic> {
    @Override
    public void handle(Rhythmic task, TaskContext context) {
      RUNS.computeIfAbsent(task.id(), id -> new java.util.concurrent.CopyOnWriteArrayList<>())
          .add(
              new java.time.Instant[] {
                context.scheduledAt(),
                context.throttledUntil().orElse(null),
                java.time.Instant.now()
              });
    }
  }

  /** Fails the first attempt of its task at once, lets the second through. */
  abstract static class FailsFirst<T extends Keyed> extends Recording<T> {
    @Override
    public void handle(T task, TaskContext context) throws Exception {
      STARTS.put(id(task) + "#" + context.attempt(), System.nanoTime());
      probe.record(id(task), "attempt:" + context.attempt());
      if (context.attempt() == 1) {
        throw new IllegalStateException("first attempt fails");
      }
    }

    @Override
    public void onError(T task, TaskContext context, Throwable error) {
      probe.record(id(task), "error:" + error.getClass().getSimpleName());
    }
  }

  @TaskHandler(
      maxAttempts = 2,
      backoff = Backoff.FIXED,
      retryDelay = "PT0.05S",
      jitter = 0,
      timeout = "PT0.5S")
  @RateLimit(permits = 1, period = "PT2S", burst = 1)
  public static class TimedPacedHandler extends FailsFirst<TimedPaced> {
    @Override
    String id(TimedPaced task) {
      return task.id();
    }
  }

  @TaskHandler(maxAttempts = 2, backoff = Backoff.FIXED, retryDelay = "PT0.05S", jitter = 0)
  @RateLimit(permits = 1, period = "PT1H", throttleRetries = false)
  public static class FreeRetryHandler extends FailsFirst<FreeRetry> {
    @Override
    String id(FreeRetry task) {
      return task.id();
    }
  }

  @TaskHandler(maxAttempts = 2, backoff = Backoff.FIXED, retryDelay = "PT0.05S", jitter = 0)
  @RateLimit(permits = 1, period = "PT1S")
  public static class FlakyPacedHandler extends Recording<FlakyPaced> {
    @Override
    String id(FlakyPaced task) {
      return task.id();
    }

    @Override
    public void handle(FlakyPaced task, TaskContext context) throws Exception {
      STARTS.put(task.id() + "#" + context.attempt(), System.nanoTime());
      probe.record(task.id(), "attempt:" + context.attempt());
      if (context.attempt() == 1) {
        throw new IllegalStateException("first attempt fails");
      }
    }

    @Override
    public void onRetry(
        FlakyPaced task, TaskContext context, int attempt, Duration delay, Throwable error) {
      probe.record(task.id(), "retry:" + attempt + ":" + delay.toMillis());
    }
  }
}
