package io.taskgate.engine.budget;

import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.KeyedRateLimiterContract;

/** The in-memory limiter (the default) keeps the limiter contract. */
class InMemoryKeyedRateLimiterContractTest extends KeyedRateLimiterContract {
  @Override
  protected KeyedRateLimiter newLimiter() {
    return new InMemoryKeyedRateLimiter();
  }
}
