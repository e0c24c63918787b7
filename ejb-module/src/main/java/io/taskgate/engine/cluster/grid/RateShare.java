package io.taskgate.engine.cluster.grid;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.limit.Limit;
import io.taskgate.core.ratelimit.RateLimitScope;

/**
 * An instance's share of a key's rate while it decides without the grid (the grid limiter's
 * degraded mode, or instances outside the grid): 1/n of the rate, and of the burst (at least 1), n
 * the members of the grid or the live instances.
 */
final class RateShare {
  private RateShare() {}

  /** {@code scope} at 1/{@code n} of its rate (n ≤ 1: as it is); see {@link Limit#share}. */
  static RateLimitScope of(RateLimitScope scope, int n) {
    if (n <= 1) {
      return scope;
    }
    RateLimitPolicy policy = scope.policy();
    try {
      return new RateLimitScope(scope.name(), Limit.of(policy).share(n).applyTo(policy));
    } catch (IllegalArgumentException | ArithmeticException e) {
      return scope; // a period near the longest span: the share would not fit, keep the policy
    }
  }
}
