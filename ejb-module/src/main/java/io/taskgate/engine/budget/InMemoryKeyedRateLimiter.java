package io.taskgate.engine.budget;

import io.taskgate.core.ratelimit.GcraShard;
import io.taskgate.core.ratelimit.KeyQuery;
import io.taskgate.core.ratelimit.KeySnapshot;
import io.taskgate.core.ratelimit.KeyState;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.core.ratelimit.TrackedKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The default {@link KeyedRateLimiter}: GCRA budgets in this process's memory, lost on restart.
 * Keys are spread over a power-of-two number of {@link GcraShard}s, each guarded by its own
 * monitor, so callers on different keys rarely contend.
 */
public final class InMemoryKeyedRateLimiter implements KeyedRateLimiter {
  /** The default key cap. */
  public static final int DEFAULT_MAX_TRACKED_KEYS = 100_000;

  private static final int DEFAULT_STRIPES = 64;

  private final GcraShard[] shards;
  private final int shift;
  private final TrackedKeys trackedKeys;

  /** A limiter tracking up to {@value #DEFAULT_MAX_TRACKED_KEYS} keys. */
  public InMemoryKeyedRateLimiter() {
    this(DEFAULT_MAX_TRACKED_KEYS);
  }

  /**
   * @param maxTrackedKeys the key cap: beyond it new keys run untracked (fail open)
   */
  public InMemoryKeyedRateLimiter(int maxTrackedKeys) {
    this(maxTrackedKeys, DEFAULT_STRIPES);
  }

  /**
   * @param maxTrackedKeys the key cap: beyond it new keys run untracked (fail open)
   * @param stripes how many independently locked shards, a power of two from 1 to 1024
   */
  public InMemoryKeyedRateLimiter(int maxTrackedKeys, int stripes) {
    if (stripes < 1 || stripes > 1024 || Integer.bitCount(stripes) != 1) {
      throw new IllegalArgumentException(
          "stripes must be a power of two from 1 to 1024, was " + stripes);
    }
    this.trackedKeys = new TrackedKeys(maxTrackedKeys);
    this.shards = new GcraShard[stripes];
    for (int i = 0; i < stripes; i++) {
      shards[i] = new GcraShard(trackedKeys);
    }
    this.shift = 32 - Integer.numberOfTrailingZeros(stripes);
  }

  @Override
  public RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long nowEpochNanos) {
    return reserve(scope, key, reservationId, nowEpochNanos, 1);
  }

  @Override
  public RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long nowEpochNanos, int cost) {
    GcraShard shard = shard(scope, key);
    synchronized (shard) {
      return shard.reserve(scope, key, reservationId, nowEpochNanos, cost);
    }
  }

  @Override
  public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos, int cost) {
    GcraShard shard = shard(scope, key);
    synchronized (shard) {
      return shard.peek(scope, key, nowEpochNanos, cost);
    }
  }

  @Override
  public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos) {
    return peek(scope, key, nowEpochNanos, 1);
  }

  /**
   * The theoretical arrival time of {@code key}'s GCRA budget under {@code scope}, in the clock of
   * the reservations: the key's budget is whole once now reaches it; {@link Long#MIN_VALUE} for a
   * key not tracked.
   */
  public long theoreticalArrival(RateLimitScope scope, String key) {
    GcraShard shard = shard(scope, key);
    synchronized (shard) {
      return shard.theoreticalArrival(scope, key);
    }
  }

  @Override
  public boolean release(RateLimitScope scope, String key, Object reservationId) {
    Objects.requireNonNull(reservationId, "reservationId");
    GcraShard shard = shard(scope, key);
    synchronized (shard) {
      return shard.release(scope, key, reservationId);
    }
  }

  @Override
  public long shift(
      RateLimitScope scope, String key, long untilEpochNanos, long nowEpochNanos, Object first) {
    GcraShard shard = shard(scope, key);
    synchronized (shard) {
      return shard.shift(scope, key, untilEpochNanos, nowEpochNanos, first);
    }
  }

  @Override
  public boolean restore(
      RateLimitScope scope, String key, long floorEpochNanos, long nowEpochNanos) {
    GcraShard shard = shard(scope, key);
    synchronized (shard) {
      return shard.restore(scope, key, floorEpochNanos, nowEpochNanos);
    }
  }

  @Override
  public int evictIdle(long nowEpochNanos) {
    int evicted = 0;
    for (GcraShard shard : shards) {
      synchronized (shard) {
        evicted += shard.evictIdle(nowEpochNanos);
      }
    }
    return evicted;
  }

  /**
   * Copies each shard's matching keys under its monitor (a short hold: one pass over its table),
   * then filters, orders and bounds them outside it, so the gate's callers wait at most one shard's
   * copy.
   */
  @Override
  public KeySnapshot keys(KeyQuery query, long nowEpochNanos) {
    KeySnapshot.Collector collector = new KeySnapshot.Collector(query);
    List<KeyState> copied = new ArrayList<>();
    for (GcraShard shard : shards) {
      synchronized (shard) {
        shard.scan(query, nowEpochNanos, copied::add);
      }
      copied.forEach(collector::offer);
      copied.clear();
    }
    return collector.snapshot();
  }

  @Override
  public Stats stats() {
    int pending = 0;
    for (GcraShard shard : shards) {
      synchronized (shard) {
        pending += shard.pendingReservations();
      }
    }
    return new Stats(
        trackedKeys.tracked(), pending, trackedKeys.untrackedDecisions(), trackedKeys.max());
  }

  private GcraShard shard(RateLimitScope scope, String key) {
    if (shards.length == 1) {
      return shards[0];
    }
    int h = (scope.name().hashCode() * 31 + key.hashCode()) * 0x61C88647;
    return shards[h >>> shift];
  }
}
