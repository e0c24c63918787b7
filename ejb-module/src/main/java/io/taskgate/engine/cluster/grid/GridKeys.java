package io.taskgate.engine.cluster.grid;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitScope;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** How the grid limiter names its cells and reservations, and its share of a rate. */
final class GridKeys {
  private GridKeys() {}

  /** The grid entry of {@code key} in {@code scope}. */
  static String cellKey(RateLimitScope scope, String key) {
    return cellKey(scope.name(), key);
  }

  /** The grid entry of {@code key} in the scope named {@code scope}. */
  static String cellKey(String scope, String key) {
    return scope + '\u0000' + key;
  }

  /** A reservation id as the cell keeps it. */
  static UUID uuid(Object reservationId) {
    return reservationId instanceof UUID uuid
        ? uuid
        : UUID.nameUUIDFromBytes(reservationId.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** {@code scope} at 1/{@code n} of its rate (n ≤ 1: as it is). */
  static RateLimitScope shareOf(RateLimitScope scope, int n) {
    if (n <= 1) {
      return scope;
    }
    RateLimitPolicy p = scope.policy();
    try {
      return new RateLimitScope(
          scope.name(),
          new RateLimitPolicy(
              p.permits(),
              p.period().multipliedBy(n),
              Math.max(1, p.burst() / n),
              p.throttleRetries(),
              p.startEmpty(),
              p.maxReservationHorizon(),
              p.maxInSlotWait(),
              p.overflow()));
    } catch (IllegalArgumentException e) {
      return scope; // a period near the longest span: the share would not fit, keep the policy
    }
  }
}
