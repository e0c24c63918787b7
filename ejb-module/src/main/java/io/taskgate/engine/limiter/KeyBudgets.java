package io.taskgate.engine.limiter;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.OverflowBehavior;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.limiter.PartitionedLimiter;
import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.core.limiter.RateLimiter;
import io.taskgate.core.ratelimit.Gcra;
import io.taskgate.core.ratelimit.KeyQuery;
import io.taskgate.core.ratelimit.KeySnapshot;
import io.taskgate.core.ratelimit.KeyState;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.function.ObjIntConsumer;

/**
 * Where a {@link NamedLimiter} keeps its budgets, one per key, under one spec: made by {@link #of}.
 * A new key when the spec's {@code maxKeys} keys are busy gets {@link NamedLimiter#UNTRACKED} from
 * {@link #tryAcquire} (fail open). Times are the limiter's monotonic nanoseconds.
 */
interface KeyBudgets {

  /**
   * Takes {@code permits} of {@code key}'s budget now, or refuses with the retry-after it can tell
   * (taking nothing).
   */
  RateLimitLease tryAcquire(String key, int permits, long nowNanos);

  /** What taking {@code permits} of {@code key}'s budget now would answer; takes nothing. */
  RateLimitLease probe(String key, int permits, long nowNanos);

  /** Key {@code key}'s budget as a limiter of its own (waiting calls ask it again). */
  RateLimiter budget(String key);

  /** The permits {@code key} could take now. */
  int availablePermits(String key, long nowNanos);

  /** Nanoseconds until {@code key} has its whole budget back; 0 when it has. */
  long nanosUntilFull(String key, long nowNanos);

  /** Calls {@code use} with each key using part of its budget now and the permits it uses. */
  void forEachUse(long nowNanos, ObjIntConsumer<String> use);

  /** Forgets keys whose budget is whole again. */
  void evictIdle(long nowNanos);

  /** Keys with a budget in memory here. */
  int tracked();

  /**
   * The budgets {@code spec} needs: the cluster's for scope cluster; for a local GCRA limiter the
   * task gate's striped in-memory GCRA tables (a few array reads per call); a partition per key for
   * the other algorithms.
   */
  static KeyBudgets of(LimitSpec spec, SharedBudgets shared, String limiter) {
    if (spec.cluster()) {
      if (shared == null) {
        throw new IllegalStateException("limiter " + limiter + " has scope cluster but no cluster");
      }
      return new Cluster(spec, shared);
    }
    if (spec.algorithm() == LimiterAlgorithm.GCRA) {
      return new GcraTables(spec);
    }
    return new Partitioned(spec);
  }

  /**
   * The task gate's policy for a GCRA limiter: nothing is reserved for later, an over-budget call
   * is refused.
   */
  static RateLimitPolicy policy(LimitSpec spec) {
    return spec.limit()
        .policy()
        .withMaxReservationHorizon(Duration.ZERO)
        .withOverflow(OverflowBehavior.DISCARD);
  }

  /** A partition per key, each a limiter of the spec's algorithm. */
  final class Partitioned implements KeyBudgets {
    private final PartitionedLimiter<String> keys;
    private final int permitLimit;

    Partitioned(LimitSpec spec) {
      this.keys = new PartitionedLimiter<>(k -> spec.newLimiter(), spec.maxKeys());
      this.permitLimit = spec.newLimiter().permitLimit();
    }

    @Override
    public RateLimitLease tryAcquire(String key, int permits, long nowNanos) {
      return keys.tryAcquire(key, permits, nowNanos, NamedLimiter.UNTRACKED);
    }

    @Override
    public RateLimitLease probe(String key, int permits, long nowNanos) {
      return keys.probe(key, permits, nowNanos);
    }

    @Override
    public RateLimiter budget(String key) {
      return keys.partition(key);
    }

    @Override
    public int availablePermits(String key, long nowNanos) {
      return keys.availablePermits(key, nowNanos);
    }

    @Override
    public long nanosUntilFull(String key, long nowNanos) {
      RateLimitLease full = keys.probe(key, permitLimit, nowNanos);
      return full.isAcquired() ? 0 : full.retryAfterNanos().orElse(0);
    }

    @Override
    public void forEachUse(long nowNanos, ObjIntConsumer<String> use) {
      keys.forEachPartition(
          (key, limiter) -> {
            int used = permitLimit - limiter.availablePermits(nowNanos);
            if (used > 0) {
              use.accept(key, used);
            }
          });
    }

    @Override
    public void evictIdle(long nowNanos) {
      keys.evictIdle(nowNanos);
    }

    @Override
    public int tracked() {
      return keys.partitionCount();
    }
  }

  /**
   * GCRA budgets in the open-addressed tables of an {@link InMemoryKeyedRateLimiter} of this
   * limiter's own: a known key costs a hash probe and a few array reads under one stripe's monitor,
   * no object per key beyond its name.
   */
  final class GcraTables implements KeyBudgets {
    private final InMemoryKeyedRateLimiter keyed;
    private final RateLimitScope scope;
    private final long interval;
    private final long tolerance;
    private final int burst;

    GcraTables(LimitSpec spec) {
      RateLimitPolicy policy = policy(spec);
      this.keyed = new InMemoryKeyedRateLimiter(spec.maxKeys());
      this.scope = new RateLimitScope(spec.name(), policy);
      this.interval = policy.emissionIntervalNanos();
      this.tolerance = policy.burstToleranceNanos();
      this.burst = policy.burst();
    }

    @Override
    public RateLimitLease tryAcquire(String key, int permits, long nowNanos) {
      return lease(keyed.reserve(scope, key, null, nowNanos, permits), permits, key, "");
    }

    @Override
    public RateLimitLease probe(String key, int permits, long nowNanos) {
      long from = Gcra.from(keyed.theoreticalArrival(scope, key), nowNanos);
      long allowAt = Gcra.slot(from, permits, interval, tolerance);
      if (Gcra.conforms(allowAt, nowNanos)) {
        return RateLimitLease.acquired(permits);
      }
      return RateLimitLease.rejected(permits, Gcra.retryAfter(allowAt, nowNanos), refusal(key));
    }

    @Override
    public RateLimiter budget(String key) {
      return new KeyBudget(this, key, burst);
    }

    @Override
    public int availablePermits(String key, long nowNanos) {
      return Gcra.available(
          keyed.theoreticalArrival(scope, key), nowNanos, interval, tolerance, burst);
    }

    @Override
    public long nanosUntilFull(String key, long nowNanos) {
      return Math.max(0, keyed.theoreticalArrival(scope, key) - nowNanos);
    }

    @Override
    public void forEachUse(long nowNanos, ObjIntConsumer<String> use) {
      KeySnapshot snapshot =
          keyed.keys(
              new KeyQuery(
                  Optional.of(scope.name()),
                  Optional.empty(),
                  k -> k.availablePermits() < burst,
                  Comparator.comparingInt(KeyState::availablePermits),
                  KeyQuery.MAX_LIMIT),
              nowNanos);
      for (KeyState state : snapshot.keys()) {
        use.accept(state.key(), burst - state.availablePermits());
      }
    }

    @Override
    public void evictIdle(long nowNanos) {
      keyed.evictIdle(nowNanos);
    }

    @Override
    public int tracked() {
      return keyed.stats().trackedKeys();
    }
  }

  /** The cluster's budgets: see {@link ClusterBudgets}. */
  final class Cluster implements KeyBudgets {
    private final LimitSpec spec;
    private final SharedBudgets shared;

    Cluster(LimitSpec spec, SharedBudgets shared) {
      this.spec = spec;
      this.shared = shared;
    }

    @Override
    public RateLimitLease tryAcquire(String key, int permits, long nowNanos) {
      return shared.of(spec, key).tryAcquire(permits, nowNanos);
    }

    @Override
    public RateLimitLease probe(String key, int permits, long nowNanos) {
      return shared.of(spec, key).probe(permits, nowNanos);
    }

    @Override
    public RateLimiter budget(String key) {
      return shared.of(spec, key);
    }

    @Override
    public int availablePermits(String key, long nowNanos) {
      return shared.of(spec, key).availablePermits(nowNanos);
    }

    @Override
    public long nanosUntilFull(String key, long nowNanos) {
      RateLimitLease full = shared.of(spec, key).probe(spec.burst(), nowNanos);
      return full.isAcquired() ? 0 : full.retryAfterNanos().orElse(0);
    }

    @Override
    public void forEachUse(long nowNanos, ObjIntConsumer<String> use) {
      // the cluster does not list its keys here
    }

    @Override
    public void evictIdle(long nowNanos) {
      // the cluster's keyed limiter forgets its own keys
    }

    @Override
    public int tracked() {
      return 0;
    }
  }

  /** A lease for the gate's decision on one call of {@code key}. */
  /**
   * A lease of {@code permits} for a gate's decision on a call of {@code key}: {@link
   * NamedLimiter#UNTRACKED} when the key could not be tracked; a refusal's reason names the key and
   * ends with {@code where}.
   */
  static RateLimitLease lease(RateLimitDecision decision, int permits, String key, String where) {
    return switch (decision.outcome()) {
      case RUN_NOW -> RateLimitLease.acquired(permits);
      case UNTRACKED -> NamedLimiter.UNTRACKED;
      default ->
          RateLimitLease.rejected(
              permits, Math.max(0, decision.retryAfterNanos()), refusal(key) + where);
    };
  }

  private static String refusal(String key) {
    return "rate exceeded for key '" + key + "'";
  }

  /** One key's GCRA budget as a limiter (what a waiting call asks again). */
  final class KeyBudget implements RateLimiter {
    private final GcraTables budgets;
    private final String key;
    private final int burst;

    KeyBudget(GcraTables budgets, String key, int burst) {
      this.budgets = budgets;
      this.key = key;
      this.burst = burst;
    }

    @Override
    public RateLimitLease tryAcquire(int permits, long nowNanos) {
      if (permits == 0) {
        return budgets.probe(key, 1, nowNanos);
      }
      RateLimitLease lease = budgets.tryAcquire(key, permits, nowNanos);
      return lease == NamedLimiter.UNTRACKED ? RateLimitLease.acquired(permits) : lease;
    }

    @Override
    public RateLimitLease probe(int permits, long nowNanos) {
      return budgets.probe(key, permits, nowNanos);
    }

    @Override
    public int availablePermits(long nowNanos) {
      return budgets.availablePermits(key, nowNanos);
    }

    @Override
    public int permitLimit() {
      return burst;
    }

    @Override
    public boolean isIdle(long nowNanos) {
      return budgets.nanosUntilFull(key, nowNanos) == 0;
    }
  }
}
