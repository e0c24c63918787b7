package io.taskgate.core.ratelimit;

import io.taskgate.api.RateLimitPolicy;
import java.util.Objects;

/**
 * What a limiter holds for one tracked (scope, key) at one instant, for monitoring.
 *
 * @param scope the scope's name (the task type)
 * @param key the key as the limiter tracks it
 * @param policy the scope's policy
 * @param nextSlotEpochNanos the slot a new reservation would get, nanoseconds since the epoch; at
 *     or before the snapshot's now when the key has budget left
 * @param availablePermits executions the key could start at once (0 while it is throttled)
 */
public record KeyState(
    String scope,
    String key,
    RateLimitPolicy policy,
    long nextSlotEpochNanos,
    int availablePermits) {

  /** Checks that the names and the policy are present and the permits not negative. */
  public KeyState {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(policy, "policy");
    if (availablePermits < 0) {
      throw new IllegalArgumentException(
          "availablePermits must not be negative, was " + availablePermits);
    }
  }

  /**
   * The state of a key whose theoretical arrival time is {@code tatEpochNanos}, at {@code now}: see
   * {@link Gcra}.
   */
  public static KeyState of(
      String scope, String key, RateLimitPolicy policy, long tatEpochNanos, long now) {
    long interval = policy.emissionIntervalNanos();
    long tolerance = policy.burstToleranceNanos();
    long slot = Gcra.slot(Gcra.from(tatEpochNanos, now), 1, interval, tolerance);
    int available = Gcra.available(tatEpochNanos, now, interval, tolerance, policy.burst());
    return new KeyState(scope, key, policy, slot, available);
  }

  /** Whether a new task of this key would have to wait for its slot at {@code now}. */
  public boolean throttledAt(long nowEpochNanos) {
    return nextSlotEpochNanos > nowEpochNanos;
  }
}
