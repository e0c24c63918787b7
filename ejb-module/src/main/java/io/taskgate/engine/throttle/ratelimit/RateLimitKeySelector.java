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
      warn(handler, gate, e);
      return Optional.empty();
    }
    return Optional.ofNullable(RateLimitKeys.normalize(declared, settings.maxKeyLength()));
  }

  @SuppressWarnings("unchecked")
  private static String declaredKey(
      GateSpec gate, Task task, Supplier<? extends Handler<?>> handlerInstance) {
    return switch (gate.keySource()) {
      case TASK -> task instanceof RateLimitedTask limited ? limited.rateLimitKey() : null;
      case HANDLER -> ((Handler<Task>) handlerInstance.get()).rateLimitKey(task);
    };
  }

  private void warn(HandlerInfo handler, GateSpec gate, RuntimeException e) {
    long held = warnings.admit(handler.typeName());
    if (held < 0) {
      return;
    }
    String source =
        gate.keySource() == GateSpec.KeySource.HANDLER
            ? handler.beanClass().getName() + ".rateLimitKey(task)"
            : handler.typeName() + ".rateLimitKey()";
    LOG.log(
        Level.WARNING,
        "Taskgate could not read the rate-limit key of a task of type "
            + handler.typeName()
            + ": "
            + source
            + " threw "
            + e
            + "; the task runs unthrottled"
            + LogThrottle.heldBack(held),
        e);
  }
}
