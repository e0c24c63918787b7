package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Task;
import io.taskgate.core.ratelimit.RateLimitKeys;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.event.LogThrottle;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerInvoker;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The throttling key of a task, as the limiter tracks it: from the task ({@link
 * RateLimitedTask#rateLimitKey()}) or from its handler ({@link Handler#rateLimitKey(Task)}), as its
 * {@link GateSpec} says. Empty means "do not throttle this task": the type has no gate, the key is
 * null or empty, or reading it threw; a throw is logged as a warning, at most once a minute per
 * task type (with the count of the ones not logged). Keys longer than {@link
 * GateSettings#maxKeyLength()} are replaced by {@code sha256:} and their hex SHA-256.
 */
@ApplicationScoped
public class RateLimitKeySelector {
  private static final Logger LOG = Logger.getLogger(RateLimitKeySelector.class.getName());

  /** At most one warning per task type this often. */
  static final Duration WARNING_INTERVAL = Duration.ofMinutes(1);

  private final GateSettings settings;
  private final HandlerInvoker invoker;
  private final LogThrottle warnings;

  /** For the CDI proxy. */
  protected RateLimitKeySelector() {
    this(null, null, null);
  }

  /** Keys within {@code settings}' length; warnings timed by {@code ticker}. */
  @Inject
  RateLimitKeySelector(GateSettings settings, Ticker ticker, HandlerInvoker invoker) {
    this.settings = settings;
    this.invoker = invoker;
    // a lambda, not ticker::nanos: the proxy's constructor passes a null ticker
    this.warnings = new LogThrottle(WARNING_INTERVAL, () -> ticker.nanos());
  }

  /**
   * A task's key and how many units of the key's budget it spends.
   *
   * @param key the throttling key
   * @param cost the units, at least 1
   */
  public record Keyed(String key, int cost) {}

  /**
   * The task's key and cost, asking one handler instance (created for the call, released after)
   * only when they come from the handler; empty when the task is not throttled.
   */
  public Optional<Keyed> keyedOf(HandlerInfo handler, Task task) {
    GateSpec gate = handler.gate().orElse(null);
    if (gate == null || gate.keySource() == GateSpec.KeySource.TASK) {
      return keyOf(handler, task, () -> null)
          .map(key -> new Keyed(key, costOf(handler, task, () -> null)));
    }
    try (HandlerInvoker.Instance instance = invoker.instance(handler)) {
      return keyOf(handler, task, instance::handler)
          .map(key -> new Keyed(key, costOf(handler, task, instance::handler)));
    }
  }

  /**
   * How many units of its key's budget {@code task} spends: its handler's {@code
   * rateLimitCost(task)} when the key comes from the handler, else the task's own {@code
   * rateLimitCost()} (1 for a task that does not say). A cost below 1, or one whose reading throws,
   * counts as 1, with a warning (at most once a minute per task type): the dispatch refuses such a
   * task, so only a task stored before its type changed can show one.
   */
  public int costOf(
      HandlerInfo handler, Task task, Supplier<? extends Handler<?>> handlerInstance) {
    GateSpec gate = handler.gate().orElse(null);
    if (gate == null) {
      return 1;
    }
    int cost;
    try {
      cost = declaredCost(gate, task, handlerInstance);
    } catch (RuntimeException e) {
      warn(handler, gate, e, "rateLimitCost", "spends 1 unit");
      return 1;
    }
    if (cost < 1) {
      warn(
          handler,
          gate,
          new IllegalArgumentException("the cost must be at least 1, was " + cost),
          "rateLimitCost",
          "spends 1 unit");
      return 1;
    }
    return cost;
  }

  /**
   * The task's throttling key, asking a handler instance (created for the call, released after)
   * only when the key comes from the handler.
   */
  public Optional<String> keyOf(HandlerInfo handler, Task task) {
    GateSpec gate = handler.gate().orElse(null);
    if (gate == null || gate.keySource() == GateSpec.KeySource.TASK) {
      return keyOf(handler, task, () -> null);
    }
    try (HandlerInvoker.Instance instance = invoker.instance(handler)) {
      return keyOf(handler, task, instance::handler);
    }
  }

  /**
   * The key of {@code task}, a task of {@code handler}'s type.
   *
   * @param handlerInstance gives a handler instance; called only when the key comes from the
   *     handler. The caller creates it and destroys it afterwards. If it throws, the task is not
   *     throttled (with a warning).
   */
  public Optional<String> keyOf(
      HandlerInfo handler, Task task, Supplier<? extends Handler<?>> handlerInstance) {
    GateSpec gate = handler.gate().orElse(null);
    if (gate == null) {
      return Optional.empty();
    }
    String declared;
    try {
      declared = declaredKey(gate, task, handlerInstance);
    } catch (RuntimeException e) {
      warn(handler, gate, e, "rateLimitKey", "runs unthrottled");
      return Optional.empty();
    }
    return Optional.ofNullable(RateLimitKeys.normalize(declared, settings.maxKeyLength()));
  }

  /**
   * The task's cost as its type or handler declares it, unchecked (a handler instance is made for
   * the call when it comes from the handler); an exception the declaration throws propagates.
   */
  public int declaredCost(HandlerInfo handler, Task task) {
    GateSpec gate = handler.gate().orElse(null);
    if (gate == null) {
      return 1;
    }
    if (gate.keySource() == GateSpec.KeySource.TASK) {
      return declaredCost(gate, task, () -> null);
    }
    try (HandlerInvoker.Instance instance = invoker.instance(handler)) {
      return declaredCost(gate, task, instance::handler);
    }
  }

  @SuppressWarnings("unchecked")
  private static int declaredCost(
      GateSpec gate, Task task, Supplier<? extends Handler<?>> handlerInstance) {
    return switch (gate.keySource()) {
      case TASK -> task instanceof RateLimitedTask limited ? limited.rateLimitCost() : 1;
      case HANDLER -> ((Handler<Task>) handlerInstance.get()).rateLimitCost(task);
    };
  }

  @SuppressWarnings("unchecked")
  private static String declaredKey(
      GateSpec gate, Task task, Supplier<? extends Handler<?>> handlerInstance) {
    return switch (gate.keySource()) {
      case TASK -> task instanceof RateLimitedTask limited ? limited.rateLimitKey() : null;
      case HANDLER -> ((Handler<Task>) handlerInstance.get()).rateLimitKey(task);
    };
  }

  private void warn(
      HandlerInfo handler, GateSpec gate, RuntimeException e, String method, String outcome) {
    long held = warnings.admit(handler.typeName() + "#" + method);
    if (held < 0) {
      return;
    }
    String source =
        gate.keySource() == GateSpec.KeySource.HANDLER
            ? handler.beanClass().getName() + "." + method + "(task)"
            : handler.typeName() + "." + method + "()";
    LOG.log(
        Level.WARNING,
        "Taskgate could not read the rate-limit "
            + (method.equals("rateLimitKey") ? "key" : "cost")
            + " of a task of type "
            + handler.typeName()
            + ": "
            + source
            + " threw "
            + e
            + "; the task "
            + outcome
            + LogThrottle.heldBack(held),
        e);
  }
}
