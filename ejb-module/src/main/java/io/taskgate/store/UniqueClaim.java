package io.taskgate.store;

import io.taskgate.api.UniquePolicy;
import java.util.Objects;

/**
 * A task's claim to its unique key: the task type and the key, and the policy that says which
 * existing task the key still belongs to ({@link UniquePolicy#conflicts}).
 *
 * @param type the task type's full class name
 * @param key the unique key (the task's task key)
 * @param policy which states of the existing task, and for how long after its dispatch, keep the
 *     key its own
 */
public record UniqueClaim(String type, String key, UniquePolicy policy) {
  /** Checks the fields. */
  public UniqueClaim {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(policy, "policy");
  }
}
