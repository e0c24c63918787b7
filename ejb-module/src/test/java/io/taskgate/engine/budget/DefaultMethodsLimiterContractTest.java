package io.taskgate.engine.budget;

import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.KeyedRateLimiterContract;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;

/**
 * A replacement limiter written before weighted costs and restores, implementing only the methods
 * without a default, keeps the limiter contract through {@link KeyedRateLimiter}'s defaults: its
 * reservations of several units are made of single ones, and it restores nothing.
 */
class DefaultMethodsLimiterContractTest extends KeyedRateLimiterContract {
  @Override
  protected KeyedRateLimiter newLimiter() {
    InMemoryKeyedRateLimiter inner = new InMemoryKeyedRateLimiter();
    return new KeyedRateLimiter() {
      @Override
      public RateLimitDecision reserve(
          RateLimitScope scope, String key, Object reservationId, long nowEpochNanos) {
        return inner.reserve(scope, key, reservationId, nowEpochNanos);
      }

      @Override
      public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos) {
        return inner.peek(scope, key, nowEpochNanos);
      }

      @Override
      public boolean release(RateLimitScope scope, String key, Object reservationId) {
        return inner.release(scope, key, reservationId);
      }

      @Override
      public long shift(
          RateLimitScope scope, String key, long until, long nowEpochNanos, Object first) {
        return inner.shift(scope, key, until, nowEpochNanos, first);
      }

      @Override
      public int evictIdle(long nowEpochNanos) {
        return inner.evictIdle(nowEpochNanos);
      }

      @Override
      public Stats stats() {
        return inner.stats();
      }
    };
  }

  @Override
  protected boolean restoresBudgets() {
    return false;
  }
}
