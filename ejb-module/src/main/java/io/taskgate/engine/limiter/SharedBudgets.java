package io.taskgate.engine.limiter;

import io.taskgate.core.limiter.RateLimiter;

/**
 * The budgets of limiters whose scope is the cluster: a key's budget, as a {@link RateLimiter}
 * whose decisions the whole cluster shares.
 */
@FunctionalInterface
public interface SharedBudgets {

  /** Key {@code key}'s budget under {@code spec}. */
  RateLimiter of(LimitSpec spec, String key);
}
