package io.taskgate.bench;

import com.google.common.util.concurrent.RateLimiter;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.TimeMeter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import io.smallrye.faulttolerance.api.Guard;
import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.QueueOrder;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.limiter.GcraLimiter;
import io.taskgate.core.limiter.GcraLimiterOptions;
import io.taskgate.core.limiter.PartitionedLimiter;
import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import io.taskgate.engine.limiter.LimitSpec;
import io.taskgate.engine.limiter.NamedLimiter;
import java.time.Duration;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One "may this key go now?" call per limiter, all configured alike: {@link #RATE} permits per
 * second per key with a burst of as many. Each reads the system clock itself on every call, as it
 * would in use. The peers keep one limiter per key in a {@link ConcurrentHashMap}, the usual way to
 * key them.
 */
final class KeyedLimiters {
  /** Permits per second per key, high enough that every call in a benchmark is admitted. */
  static final int RATE = 1_000_000_000;

  private KeyedLimiters() {}

  interface KeyedLimiter {
    /**
     * @param suppliedNow the caller's time in epoch nanoseconds, used only by the "-supplied"
     *     variants
     */
    boolean tryAcquire(String key, Object id, long suppliedNow);
  }

  /**
   * The time a benchmark thread hands in, for Bucket4j's supplied variant, which can only pull time
   * through its {@link TimeMeter}: one cell per thread, read through a thread-local.
   */
  /**
   * Where in its array a thread keeps its time: in the middle of 16 longs (128 bytes), so two
   * threads' cells never share a cache line (false sharing would slow both).
   */
  static final int CELL = 8;

  static final ThreadLocal<long[]> SUPPLIED = ThreadLocal.withInitial(() -> new long[CELL * 2]);

  /**
   * @param name {@code taskgate}, {@code bucket4j}, {@code resilience4j} or {@code guava}: each
   *     reads the system clock on every call; {@code taskgate-supplied} and {@code
   *     bucket4j-supplied} use the caller's time instead (Resilience4j and Guava have no way to be
   *     handed the time); {@code taskgate-try-acquire} is the plain limiter API (one {@link
   *     GcraLimiter} per key in a {@link PartitionedLimiter}) reading {@code System.nanoTime};
   *     {@code taskgate-limited} a {@code @RateLimited} method's limiter and {@code smallrye}
   *     SmallRye Fault Tolerance's rate limit, both reading the clock on every call
   */
  static KeyedLimiter create(String name, int maxKeys) {
    return switch (name) {
      case "taskgate" -> taskgate(maxKeys, false);
      case "taskgate-supplied" -> taskgate(maxKeys, true);
      case "taskgate-try-acquire" -> taskgateTryAcquire(maxKeys);
      case "bucket4j" -> bucket4j(false);
      case "bucket4j-supplied" -> bucket4j(true);
      case "resilience4j" -> resilience4j();
      case "guava" -> guava();
      case "taskgate-limited" -> taskgateLimited(maxKeys);
      case "smallrye" -> smallrye();
      default -> throw new IllegalArgumentException("unknown limiter " + name);
    };
  }

  static KeyedLimiter taskgate(int maxKeys, boolean supplied) {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter(maxKeys);
    RateLimitScope scope =
        new RateLimitScope("Bench", RateLimitPolicy.of(RATE, Duration.ofSeconds(1)));
    if (supplied) {
      return (key, id, now) -> limiter.reserve(scope, key, id, now).runsNow();
    }
    InstantSource clock = InstantSource.system();
    return (key, id, now) ->
        limiter.reserve(scope, key, id, EpochNanos.of(clock.instant())).runsNow();
  }

  /** The plain limiter API: a partitioned limiter with one GCRA limiter per key. */
  static KeyedLimiter taskgateTryAcquire(int maxKeys) {
    PartitionedLimiter<String> limiter =
        new PartitionedLimiter<>(
            k -> new GcraLimiter(new GcraLimiterOptions(RATE, Duration.ofSeconds(1), RATE)),
            maxKeys);
    return (key, id, now) -> limiter.tryAcquire(key, 1, System.nanoTime()).isAcquired();
  }

  static KeyedLimiter bucket4j(boolean supplied) {
    ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
    BucketConfiguration config =
        BucketConfiguration.builder()
            .addLimit(
                Bandwidth.builder()
                    .capacity(RATE)
                    .refillGreedy(RATE, Duration.ofSeconds(1))
                    .build())
            .build();
    TimeMeter meter =
        !supplied
            ? TimeMeter.SYSTEM_MILLISECONDS
            : new TimeMeter() {
              @Override
              public long currentTimeNanos() {
                return SUPPLIED.get()[CELL];
              }

              @Override
              public boolean isWallClockBased() {
                return true;
              }
            };
    return (key, id, now) ->
        buckets
            .computeIfAbsent(
                key,
                k ->
                    Bucket.builder()
                        .addLimit(config.getBandwidths()[0])
                        .withCustomTimePrecision(meter)
                        .build())
            .tryConsume(1);
  }

  static KeyedLimiter resilience4j() {
    RateLimiterConfig config =
        RateLimiterConfig.custom()
            .limitForPeriod(RATE)
            .limitRefreshPeriod(Duration.ofSeconds(1))
            .timeoutDuration(Duration.ZERO)
            .build();
    ConcurrentHashMap<String, AtomicRateLimiter> limiters = new ConcurrentHashMap<>();
    return (key, id, now) ->
        limiters.computeIfAbsent(key, k -> new AtomicRateLimiter(k, config)).acquirePermission();
  }

  /**
   * What a {@code @RateLimited} method's limiter decides per call: its {@link NamedLimiter} (GCRA,
   * one budget per key) with the monotonic clock read on every call, the lease closed after.
   */
  static KeyedLimiter taskgateLimited(int maxKeys) {
    NamedLimiter limiter =
        new NamedLimiter(
            new LimitSpec(
                "bench",
                LimiterAlgorithm.GCRA,
                RATE,
                Duration.ofSeconds(1),
                RATE,
                1,
                maxKeys,
                Duration.ZERO,
                100,
                QueueOrder.OLDEST_FIRST,
                false),
            System::nanoTime,
            null,
            null);
    return (key, id, now) -> {
      RateLimitLease lease = limiter.tryAcquire(key, System.nanoTime());
      lease.close();
      return lease.isAcquired();
    };
  }

  /** SmallRye Fault Tolerance's rate limit (its programmatic {@link Guard}), one per key. */
  static KeyedLimiter smallrye() {
    ConcurrentHashMap<String, Guard> guards = new ConcurrentHashMap<>();
    return (key, id, now) ->
        guards
            .computeIfAbsent(
                key,
                k ->
                    Guard.create()
                        .withRateLimit()
                        .limit(RATE)
                        .window(1, ChronoUnit.SECONDS)
                        .done()
                        .build())
            .get(() -> Boolean.TRUE, Boolean.class);
  }

  @SuppressWarnings("UnstableApiUsage")
  static KeyedLimiter guava() {
    ConcurrentHashMap<String, RateLimiter> limiters = new ConcurrentHashMap<>();
    return (key, id, now) ->
        limiters.computeIfAbsent(key, k -> RateLimiter.create(RATE)).tryAcquire();
  }
}
