package io.taskgate.bench;

import com.google.common.util.concurrent.RateLimiter;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.ratelimit.InMemoryKeyedRateLimiter;
import java.time.Duration;
import java.time.InstantSource;
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
    boolean tryAcquire(String key, Object id);
  }

  static KeyedLimiter create(String name, int maxKeys) {
    return switch (name) {
      case "taskgate" -> taskgate(maxKeys);
      case "bucket4j" -> bucket4j();
      case "resilience4j" -> resilience4j();
      case "guava" -> guava();
      default -> throw new IllegalArgumentException("unknown limiter " + name);
    };
  }

  static KeyedLimiter taskgate(int maxKeys) {
    InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter(maxKeys);
    RateLimitScope scope =
        new RateLimitScope("Bench", RateLimitPolicy.of(RATE, Duration.ofSeconds(1)));
    InstantSource clock = InstantSource.system();
    return (key, id) -> limiter.reserve(scope, key, id, EpochNanos.of(clock.instant())).runsNow();
  }

  static KeyedLimiter bucket4j() {
    ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
    return (key, id) ->
        buckets
            .computeIfAbsent(
                key,
                k ->
                    Bucket.builder()
                        .addLimit(
                            Bandwidth.builder()
                                .capacity(RATE)
                                .refillGreedy(RATE, Duration.ofSeconds(1))
                                .build())
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
    return (key, id) ->
        limiters.computeIfAbsent(key, k -> new AtomicRateLimiter(k, config)).acquirePermission();
  }

  @SuppressWarnings("UnstableApiUsage")
  static KeyedLimiter guava() {
    ConcurrentHashMap<String, RateLimiter> limiters = new ConcurrentHashMap<>();
    return (key, id) -> limiters.computeIfAbsent(key, k -> RateLimiter.create(RATE)).tryAcquire();
  }
}
