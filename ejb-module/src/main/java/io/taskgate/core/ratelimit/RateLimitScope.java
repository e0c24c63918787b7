package io.taskgate.core.ratelimit;

import io.taskgate.api.RateLimitPolicy;
import java.util.Objects;

/**
 * Where budgets live: one scope per task type. The same key in two scopes never shares budget.
 *
 * @param name the scope's name, usually the task type's name; not blank
 * @param policy the rate every key of this scope gets
 */
public record RateLimitScope(String name, RateLimitPolicy policy) {

  /** Checks that the name is not blank and the policy is present. */
  public RateLimitScope {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "Invalid rate-limit scope: name must not be blank, was '" + name + "'");
    }
    Objects.requireNonNull(policy, "Invalid rate-limit scope '" + name + "': policy is null");
  }
}
