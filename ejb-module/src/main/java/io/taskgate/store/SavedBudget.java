package io.taskgate.store;

import java.util.Objects;

/**
 * A rate-limited key's budget as its starts left it: the theoretical arrival time of its GCRA (the
 * key's budget is whole again once now reaches it).
 *
 * @param scope the budget's scope (the task type's name)
 * @param key the rate-limit key
 * @param tatEpochNanos the theoretical arrival time, nanoseconds since the epoch
 */
public record SavedBudget(String scope, String key, long tatEpochNanos) {
  /** Checks that the scope and the key are there. */
  public SavedBudget {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(key, "key");
  }
}
