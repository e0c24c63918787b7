package io.taskgate.engine.standalone;

import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitKeys;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import io.taskgate.engine.handler.GateSpec;
import java.time.Instant;

/**
 * The rate limit of the {@link StandaloneEngine}: the server's keyed limiter (as {@code
 * taskgate.rate-limit.limiter=local}) asked as the gate asks it, each task reserving with its id,
 * so that a parked task redeems its slot when it comes back at it.
 */
final class RateGate {
  /** Not now: run at {@code slot}. */
  record Deferred(Instant slot) {}

  private final KeyedRateLimiter limiter = new InMemoryKeyedRateLimiter();

  /**
   * What the rate limit says of {@code entry} at {@code now}: null to run; a {@link Deferred} slot
   * to park until; a {@link RateLimitRejectedException} beyond the horizon or for a discarding
   * policy (nothing spent).
   */
  Object decide(TaskEntry entry, Instant now) {
    GateSpec gate = entry.info.gate().orElse(null);
    if (gate == null || (entry.attempt > 0 && !gate.policy().throttleRetries())) {
      return null;
    }
    String key = keyOf(entry);
    if (key == null) {
      return null;
    }
    int cost = costOf(entry);
    if (cost > gate.policy().burst()) {
      return new RateLimitRejectedException(
          entry.info.taskType().getName(),
          entry.info.beanClass().getName(),
          key,
          null,
          gate.policy(),
          RateLimitRejectedException.Reason.COST_ABOVE_BURST,
          cost);
    }
    RateLimitDecision decision =
        limiter.reserve(gate.scope(), key, entry.id, EpochNanos.of(now), cost);
    return switch (decision.outcome()) {
      case RUN_NOW, UNTRACKED -> null;
      case DEFERRED -> new Deferred(EpochNanos.toInstant(decision.slotEpochNanos()));
      default ->
          new RateLimitRejectedException(
              entry.info.taskType().getName(),
              entry.info.beanClass().getName(),
              key,
              EpochNanos.toInstant(decision.slotEpochNanos()),
              gate.policy(),
              decision.outcome().rejectionReason());
    };
  }

  /**
   * The upstream asked {@code entry}'s key to wait until {@code until}: the key's schedule moves so
   * that nothing of it starts before then; false when the task has no key (it waits alone).
   */
  boolean pushBack(TaskEntry entry, Instant until, Instant now) {
    GateSpec gate = entry.info.gate().orElse(null);
    String key = gate == null ? null : keyOf(entry);
    if (key == null) {
      return false;
    }
    limiter.shift(gate.scope(), key, EpochNanos.of(until), EpochNanos.of(now), entry.id);
    return true;
  }

  /**
   * The task's cost as the server's gate reads it, from the task or from its handler; refused (as a
   * dispatch refuses it) below 1 or above the burst.
   */
  static int costOf(TaskEntry entry) {
    GateSpec gate = entry.info.gate().orElseThrow();
    return switch (gate.keySource()) {
      case TASK -> entry.task instanceof RateLimitedTask limited ? limited.rateLimitCost() : 1;
      case HANDLER -> entry.handler.rateLimitCost(entry.task);
    };
  }

  /** The task's key as the server's gate reads it, from the task or from its handler. */
  private static String keyOf(TaskEntry entry) {
    GateSpec gate = entry.info.gate().orElseThrow();
    String declared =
        switch (gate.keySource()) {
          case TASK ->
              entry.task instanceof RateLimitedTask limited ? limited.rateLimitKey() : null;
          case HANDLER -> entry.handler.rateLimitKey(entry.task);
        };
    return RateLimitKeys.normalize(declared, RateLimitKeys.DEFAULT_MAX_KEY_LENGTH);
  }
}
