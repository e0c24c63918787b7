package io.taskgate.core.limiter;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One limiter per partition key (per tenant, per task type, ...), created on first use by a factory
 * and dropped again once it is {@linkplain RateLimiter#isIdle idle}, so that a key coming back
 * later finds a fresh limiter that decides exactly as the dropped one would have.
 *
 * <p>At most {@code maxPartitions} partitions exist at once. A request for a new key when the cap
 * is reached first evicts idle partitions; if none can go, the request is refused (no retry-after).
 * {@link #evictIdle(long)} does the same sweep on demand; call it now and then so memory follows
 * the set of active keys.
 *
 * <p>An acquisition on an existing partition runs without locking; one that finds its partition
 * dropped by an eviction meanwhile (which happens only to idle partitions) asks again inside the
 * map's per-key atomic update, as does the creation of a partition, so no decision is taken on a
 * dropped partition. The factory must therefore be quick, must not touch this limiter, and should
 * return a new limiter per call.
 *
 * @param <K> the partition key; needs sound {@code equals} and {@code hashCode}
 */
public final class PartitionedLimiter<K> {

  private final Function<? super K, ? extends RateLimiter> factory;
  private final int maxPartitions;
  private final ConcurrentHashMap<K, RateLimiter> partitions = new ConcurrentHashMap<>();
  private final AtomicInteger count = new AtomicInteger();

  public PartitionedLimiter(Function<? super K, ? extends RateLimiter> factory, int maxPartitions) {
    this.factory = Objects.requireNonNull(factory, "factory");
    this.maxPartitions = Checks.atLeastOne("maxPartitions", maxPartitions);
  }

  /**
   * {@link RateLimiter#tryAcquire(int, long)} on the partition of {@code key}, creating it if
   * needed; refused without retry-after when a new partition is needed and the cap is reached.
   */
  public RateLimitLease tryAcquire(K key, int permits, long nowNanos) {
    return tryAcquire(key, permits, nowNanos, null);
  }

  /**
   * As {@link #tryAcquire(Object, int, long)}, but answers {@code whenFull} (for example an
   * acquired lease, to fail open) when a new partition is needed and the cap is reached; null
   * answers the refusal.
   */
  public RateLimitLease tryAcquire(K key, int permits, long nowNanos, RateLimitLease whenFull) {
    Objects.requireNonNull(key, "key");
    RateLimiter existing = partitions.get(key);
    if (existing != null) {
      // the common case, without the map's per-key lock; if an eviction dropped the partition
      // meanwhile it was idle (all permits free), so the lease is given back and the request asked
      // again of the partition that replaced it
      RateLimitLease lease = existing.tryAcquire(permits, nowNanos);
      if (partitions.get(key) == existing) {
        return lease;
      }
      lease.close();
    } else if (count.get() >= maxPartitions) {
      evictIdle(nowNanos);
    }
    RateLimitLease[] result = new RateLimitLease[1];
    partitions.compute(
        key,
        (k, limiter) -> {
          RateLimiter partition = limiter;
          if (partition == null) {
            if (!reserveSlot()) {
              result[0] =
                  whenFull != null
                      ? whenFull
                      : RateLimitLease.rejected(
                          permits,
                          "partition limit of "
                              + maxPartitions
                              + " reached and none idle; no partition for key "
                              + k);
              return null;
            }
            try {
              partition = Objects.requireNonNull(factory.apply(k), "factory returned null");
              result[0] = partition.tryAcquire(permits, nowNanos);
            } catch (RuntimeException e) {
              count.decrementAndGet(); // nothing is stored when compute throws
              throw e;
            }
            return partition;
          }
          result[0] = partition.tryAcquire(permits, nowNanos);
          return partition;
        });
    return result[0];
  }

  /** {@link RateLimiter#probe(int, long)} on the partition of {@code key}; creates nothing. */
  public RateLimitLease probe(K key, int permits, long nowNanos) {
    return existingOrFresh(key).probe(permits, nowNanos);
  }

  /** The available permits of the partition of {@code key}, or of a fresh one if it has none. */
  public int availablePermits(K key, long nowNanos) {
    return existingOrFresh(key).availablePermits(nowNanos);
  }

  private RateLimiter existingOrFresh(K key) {
    RateLimiter existing = partitions.get(Objects.requireNonNull(key, "key"));
    return existing != null ? existing : factory.apply(key);
  }

  private boolean reserveSlot() {
    while (true) {
      int current = count.get();
      if (current >= maxPartitions) {
        return false;
      }
      if (count.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  /**
   * Drops every partition that is idle at {@code nowNanos}.
   *
   * @return the number of partitions dropped
   */
  public int evictIdle(long nowNanos) {
    int evicted = 0;
    for (K key : partitions.keySet()) {
      boolean[] dropped = {false};
      partitions.computeIfPresent(
          key,
          (k, limiter) -> {
            if (limiter.isIdle(nowNanos)) {
              dropped[0] = true;
              count.decrementAndGet();
              return null;
            }
            return limiter;
          });
      if (dropped[0]) {
        evicted++;
      }
    }
    return evicted;
  }

  /** Calls {@code action} with each partition there is now (weakly consistent, as a view). */
  public void forEachPartition(
      java.util.function.BiConsumer<? super K, ? super RateLimiter> action) {
    partitions.forEach(action);
  }

  public int partitionCount() {
    return count.get();
  }

  public int maxPartitions() {
    return maxPartitions;
  }

  /**
   * A {@link RateLimiter} view of one partition, for example to chain a per-key limit with a global
   * one in a {@link ChainedLimiter}.
   */
  public RateLimiter partition(K key) {
    Objects.requireNonNull(key, "key");
    return new RateLimiter() {
      @Override
      public RateLimitLease tryAcquire(int permits, long nowNanos) {
        return PartitionedLimiter.this.tryAcquire(key, permits, nowNanos);
      }

      @Override
      public RateLimitLease probe(int permits, long nowNanos) {
        return PartitionedLimiter.this.probe(key, permits, nowNanos);
      }

      @Override
      public int availablePermits(long nowNanos) {
        return PartitionedLimiter.this.availablePermits(key, nowNanos);
      }

      @Override
      public int permitLimit() {
        return existingOrFresh(key).permitLimit();
      }

      @Override
      public boolean isIdle(long nowNanos) {
        RateLimiter existing = partitions.get(key);
        return existing == null || existing.isIdle(nowNanos);
      }

      @Override
      public String toString() {
        return "partition " + key;
      }
    };
  }
}
