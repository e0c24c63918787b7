package io.taskgate.engine.handler;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitScope;
import java.util.Objects;

/**
 * How tasks of one type pass the rate-limit gate, resolved from the handler when the application
 * deploys. Only a task type with a policy and a key source has one.
 *
 * @param scope the budgets of the task type: named by the task type, with its policy
 * @param keySource where each task's key comes from
 * @param policySource where the policy came from
 */
public record GateSpec(RateLimitScope scope, KeySource keySource, PolicySource policySource) {

  /** Where a task's throttling key comes from. */
  public enum KeySource {
    /** The task: it implements {@code RateLimitedTask}; no handler instance is needed. */
    TASK,
    /** The handler overrides {@code rateLimitKey(task)}: it needs a handler instance. */
    HANDLER
  }

  /** Where the policy came from. */
  public enum PolicySource {
    /** The handler's {@code @RateLimit}. */
    ANNOTATION,
    /** The handler's {@code rateLimitPolicy()} method. */
    HANDLER_METHOD
  }

  /** Checks that every part is present. */
  public GateSpec {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(keySource, "keySource");
    Objects.requireNonNull(policySource, "policySource");
  }

  /** The policy. */
  public RateLimitPolicy policy() {
    return scope.policy();
  }
}
