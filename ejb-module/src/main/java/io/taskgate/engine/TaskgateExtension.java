package io.taskgate.engine;

import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskHandler;
import io.taskgate.core.task.RetryPolicy;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Finds every bean marked {@link TaskHandler} at deployment, checks it and records it. A problem
 * (no {@link Handler} type, a task type it cannot resolve, two handlers for one task type, an
 * invalid option) fails the deployment with a message naming the class, the option and the value.
 */
public class TaskgateExtension implements Extension {
  private static final Logger LOG = Logger.getLogger(TaskgateExtension.class.getName());

  private final Map<String, HandlerInfo> handlers = new LinkedHashMap<>();
  private final Map<Class<?>, Bean<?>> beans = new LinkedHashMap<>();

  void onBean(@Observes ProcessManagedBean<?> event) {
    TaskHandler options = event.getAnnotatedBeanClass().getAnnotation(TaskHandler.class);
    if (options == null) {
      return;
    }
    Class<?> beanClass = event.getAnnotatedBeanClass().getJavaClass();
    try {
      HandlerInfo info = register(describe(beanClass, options));
      beans.put(beanClass, event.getBean());
      LOG.fine(() -> "Taskgate handler " + beanClass.getName() + " runs " + info.typeName());
    } catch (IllegalArgumentException e) {
      event.addDefinitionError(
          new DeploymentException(
              "Taskgate handler " + beanClass.getName() + ": " + e.getMessage(), e));
    }
  }

  /** Records a handler; a second one for the same task type is refused, naming both. */
  HandlerInfo register(HandlerInfo info) {
    HandlerInfo other = handlers.putIfAbsent(info.typeName(), info);
    if (other != null) {
      throw new IllegalArgumentException(
          "two handlers for task type "
              + info.typeName()
              + ": "
              + other.beanClass().getName()
              + " and "
              + info.beanClass().getName()
              + "; keep exactly one");
    }
    return info;
  }

  /** The handlers found, by task type name. */
  public Map<String, HandlerInfo> handlers() {
    return Collections.unmodifiableMap(handlers);
  }

  /**
   * The CDI bean of a handler class. The runner creates handlers from it rather than by type
   * resolution, because in an EAR the engine's module cannot resolve beans of a WAR by type.
   */
  public Optional<Bean<?>> bean(Class<?> handlerClass) {
    return Optional.ofNullable(beans.get(handlerClass));
  }

  static HandlerInfo describe(Class<?> beanClass, TaskHandler options) {
    Class<? extends Task> taskType =
        taskTypeOf(beanClass)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "it is annotated @TaskHandler but does not implement"
                            + " io.taskgate.api.Handler<T> with a concrete task type T"
                            + " (for example Handler<SyncTenantData>)"));
    if (options.queue().isBlank()) {
      throw new IllegalArgumentException(
          "option queue must not be blank, was '" + options.queue() + "'");
    }
    RetryPolicy retry =
        RetryPolicy.of(
            options.maxAttempts(),
            options.backoff(),
            options.retryDelay(),
            options.maxRetryDelay(),
            options.jitter());
    Optional<Duration> timeout = Optional.empty();
    if (!options.timeout().isEmpty()) {
      try {
        Duration t = Duration.parse(options.timeout());
        if (t.isNegative() || t.isZero()) {
          throw new IllegalArgumentException(
              "option timeout must be positive, was '" + options.timeout() + "'");
        }
        timeout = Optional.of(t);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "option timeout '" + options.timeout() + "' is not an ISO-8601 duration such as PT30S",
            e);
      }
    }
    return new HandlerInfo(taskType, beanClass, options.queue(), retry, timeout);
  }

  /** The T of the {@code Handler<T>} that {@code type} or one of its supertypes implements. */
  static Optional<Class<? extends Task>> taskTypeOf(Class<?> type) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Type i : c.getGenericInterfaces()) {
        if (i instanceof ParameterizedType p && p.getRawType() == Handler.class) {
          Type argument = p.getActualTypeArguments()[0];
          if (argument instanceof Class<?> k && Task.class.isAssignableFrom(k)) {
            return Optional.of(k.asSubclass(Task.class));
          }
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }
}
