package io.taskgate.engine.limiter;

import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.core.limiter.RateLimiter;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The budgets of limiters whose scope is the cluster, kept by the engine's keyed limiter (the one
 * the task gate uses: on the data grid with {@code taskgate.rate-limit.limiter=grid}, with its
 * degraded mode; in this instance's memory otherwise). A call spends a key's GCRA budget or is
 * refused; nothing is reserved for later. Decisions use the wall clock, as every instance must.
 */
final class ClusterBudgets implements SharedBudgets {

  private final KeyedRateLimiter keyed;
  private final InstantSource clock;
  private final Map<LimitSpec, RateLimitScope> scopes = new ConcurrentHashMap<>();

  ClusterBudgets(KeyedRateLimiter keyed, InstantSource clock) {
    this.keyed = keyed;
    this.clock = clock;
  }

  @Override
  public RateLimiter of(LimitSpec spec, String key) {
    return new Budget(scopes.computeIfAbsent(spec, ClusterBudgets::scope), key, spec.burst());
  }

  /** The gate's scope of a limiter: no reservations, an over-budget call is refused. */
  private static RateLimitScope scope(LimitSpec spec) {
    return new RateLimitScope(MethodLimits.CHANGE_PREFIX + spec.name(), KeyBudgets.policy(spec));
  }

  /**
   * One key's budget. Its decisions are on the wall clock this class is given, not on the {@code
   * nowNanos} of its calls: those are this instance's monotonic readings, which other instances do
   * not share, while the budget is one per key for the whole cluster (and lives in the keyed
   * limiter beside the task gate's keys, whose times are nanoseconds since the epoch).
   */
  private final class Budget implements RateLimiter {
    private final RateLimitScope scope;
    private final String key;
    private final int burst;

    Budget(RateLimitScope scope, String key, int burst) {
      this.scope = scope;
      this.key = key;
      this.burst = burst;
    }

    @Override
    public RateLimitLease tryAcquire(int permits, long nowNanos) {
      if (permits == 0) {
        return probe(1, nowNanos);
      }
      return lease(keyed.reserve(scope, key, null, wallNanos(), permits), permits);
    }

    @Override
    public RateLimitLease probe(int permits, long nowNanos) {
      RateLimitLease lease = lease(keyed.peek(scope, key, wallNanos(), permits), permits);
      return lease == NamedLimiter.UNTRACKED ? RateLimitLease.acquired(permits) : lease;
    }

    /** The cluster's now: the injected wall clock, in nanoseconds since the epoch. */
    private long wallNanos() {
      return EpochNanos.of(clock.instant());
    }

    private RateLimitLease lease(RateLimitDecision decision, int permits) {
      return KeyBudgets.lease(decision, permits, key, " in the cluster");
    }

    /** One when a call would be let through now, else none: the cluster tells no more. */
    @Override
    public int availablePermits(long nowNanos) {
      return probe(1, nowNanos).isAcquired() ? 1 : 0;
    }

    @Override
    public int permitLimit() {
      return burst;
    }

    @Override
    public boolean isIdle(long nowNanos) {
      return true; // nothing is kept here
    }
  }
}
