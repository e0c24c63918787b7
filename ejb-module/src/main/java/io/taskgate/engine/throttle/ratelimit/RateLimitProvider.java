package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.api.InvalidTaskException;
import io.taskgate.api.Task;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.throttle.ParkedTask;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleProvider;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskQueries;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The keyed rate limit as a kind of throttle: puts the {@link RateLimitGate} on every rate-limited
 * task type, and answers for the tasks parked until their slot ({@link ParkingLot}).
 */
@ApplicationScoped
public class RateLimitProvider implements ThrottleProvider {
  private final RateLimitGate gate;
  private final ParkingLot parkingLot;
  private final GateSettings settings;
  private final RateLimitKeySelector keys;
  private final RatePolicies policies;
  private final KeyedRateLimiter limiter;
  private final SavedBudgets saved;

  /** For the CDI proxy. */
  protected RateLimitProvider() {
    this(null, null, null, null, null, null, null);
  }

  @Inject
  RateLimitProvider(
      RateLimitGate gate,
      ParkingLot parkingLot,
      GateSettings settings,
      RateLimitKeySelector keys,
      RatePolicies policies,
      KeyedRateLimiter limiter,
      SavedBudgets saved) {
    this.gate = gate;
    this.parkingLot = parkingLot;
    this.settings = settings;
    this.keys = keys;
    this.policies = policies;
    this.limiter = limiter;
    this.saved = saved;
  }

  @Override
  public List<? extends Throttle> throttlesOf(HandlerInfo handler) {
    return handler.gate().isPresent() ? List.of(gate) : List.of();
  }

  /**
   * Before any task runs: reads the policy overrides once (not on the first gated task), and
   * restores the keys' budgets saved before this start ({@link SavedBudgets}).
   */
  @Override
  public int start(Collection<HandlerInfo> handlers, TaskQueries queries, Payloads payloads) {
    policies.overrides();
    saved.restore(handlers);
    return 0;
  }

  /** The task's rate-limit key, or null (its type is not rate-limited, or the key failed). */
  @Override
  public String keyOf(HandlerInfo handler, Task task) {
    if (handler.gate().isEmpty()) {
      return null;
    }
    try {
      return keys.keyOf(handler, task).orElse(null);
    } catch (RuntimeException e) {
      return null; // kept for the views only: the gate decides with the key it reads itself
    }
  }

  /**
   * Refuses a task whose cost is below 1, cannot be read, or exceeds its key's burst (it could
   * never run), naming the handler, the cost and the burst.
   */
  @Override
  public void check(HandlerInfo handler, Task task, String where) {
    GateSpec spec = handler.gate().orElse(null);
    if (spec == null) {
      return;
    }
    String key = keyOf(handler, task);
    if (key == null) {
      return; // not throttled: its cost spends nothing
    }
    int cost;
    try {
      cost = keys.declaredCost(handler, task);
    } catch (RuntimeException e) {
      throw invalid(handler, where, "could not be read: it threw " + e, "?");
    }
    int burst = policies.scopeOf(spec, key).policy().burst();
    if (cost < 1 || cost > burst) {
      throw invalid(
          handler,
          where,
          "must be between 1 and the burst of "
              + handler.beanClass().getName()
              + "'s rate limit for key "
              + key
              + ", "
              + burst
              + (cost > burst ? " (a task costing more could never run)" : ""),
          Integer.toString(cost));
    }
  }

  private static InvalidTaskException invalid(
      HandlerInfo handler, String where, String message, String value) {
    return new InvalidTaskException(
        handler.typeName(),
        where,
        List.of(new InvalidTaskException.Violation("rateLimitCost()", message, value)));
  }

  /**
   * Later than {@code due} only when the key has no budget: the limiter's peek at the next free
   * slot; nothing is spent or reserved.
   */
  @Override
  public Instant estimatedStart(HandlerInfo handler, String key, Instant due, Instant now) {
    GateSpec spec = handler.gate().orElse(null);
    if (spec == null || key == null) {
      return due;
    }
    try {
      RateLimitDecision peek = limiter.peek(policies.scopeOf(spec, key), key, EpochNanos.of(now));
      if (peek.slotEpochNanos() == RateLimitDecision.NO_SLOT) {
        return due;
      }
      Instant slot = EpochNanos.toInstant(peek.slotEpochNanos());
      return slot.isAfter(due) ? slot : due;
    } catch (RuntimeException e) {
      return due; // an estimate only: the gate decides when the task runs
    }
  }

  @Override
  public Duration claimAhead() {
    return settings.claimAhead();
  }

  @Override
  public StoredTask waitingCopy(UUID taskId) {
    ParkedTask parked = parkingLot.get(taskId);
    return parked == null ? null : parked.task();
  }

  @Override
  public boolean cancelled(UUID taskId) {
    return parkingLot.unpark(taskId);
  }

  @Override
  public Instant replaced(StoredTask task) {
    return parkingLot.replaced(task);
  }
}
