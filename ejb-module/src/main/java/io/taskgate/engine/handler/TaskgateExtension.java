package io.taskgate.engine.handler;

import io.taskgate.api.DynamicWindow;
import io.taskgate.api.FixedWindow;
import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Semaphore;
import io.taskgate.api.SlidingWindow;
import io.taskgate.api.Task;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.Throttling;
import io.taskgate.core.limit.Limit;
import io.taskgate.core.limit.LimitSource;
import io.taskgate.core.limit.LimitText;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.core.task.RetryPolicy;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import java.lang.annotation.Annotation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Finds every bean marked {@link TaskHandler} at deployment, checks it and records it. A problem
 * (no {@link Handler} type, a task type it cannot resolve, two handlers for one task type, an
 * invalid option) fails the deployment with a message naming the class, the option and the value.
 *
 * <p>It also resolves each handler's rate-limit gate ({@link GateSpec}): the policy from {@link
 * RateLimit} or, when the handler overrides {@link Handler#rateLimitPolicy()}, from that method,
 * called once after validation on an instance created for it; the key from the task ({@link
 * RateLimitedTask}) or from the handler's {@link Handler#rateLimitKey(Task)} override, which wins.
 * A policy without a key source logs one warning and leaves the type ungated.
 */
public class TaskgateExtension implements Extension {
  private static final Logger LOG = Logger.getLogger(TaskgateExtension.class.getName());

  /** {@code @RateLimit}'s horizon option. */
  private static final String HORIZON = "maxReservationHorizon";

  private static final List<Class<? extends Annotation>> HANDLER_ONLY =
      List.of(
          RateLimit.class,
          Mutex.class,
          Semaphore.class,
          FixedWindow.class,
          SlidingWindow.class,
          DynamicWindow.class,
          Throttling.class);

  private final Map<String, HandlerInfo> handlers = new LinkedHashMap<>();
  private final Map<Class<?>, Bean<?>> beans = new LinkedHashMap<>();

  void onBean(@Observes ProcessManagedBean<?> event) {
    TaskHandler options = event.getAnnotatedBeanClass().getAnnotation(TaskHandler.class);
    if (options == null) {
      for (Class<? extends Annotation> a : HANDLER_ONLY) {
        if (event.getAnnotatedBeanClass().isAnnotationPresent(a)) {
          LOG.warning(
              "Taskgate: "
                  + event.getAnnotatedBeanClass().getJavaClass().getName()
                  + " is annotated @"
                  + a.getSimpleName()
                  + " but not @TaskHandler; the annotation is ignored");
        }
      }
      return;
    }
    Class<?> beanClass = event.getAnnotatedBeanClass().getJavaClass();
    try {
      HandlerInfo info = register(describe(beanClass, options));
      beans.put(beanClass, event.getBean());
      LOG.fine(() -> "Taskgate handler " + beanClass.getName() + " runs " + info.typeName());
    } catch (IllegalArgumentException e) {
      event.addDefinitionError(new DeploymentException(problem(beanClass, e.getMessage()), e));
    }
  }

  /**
   * Resolves the rate-limit policy of every handler that overrides {@link
   * Handler#rateLimitPolicy()}: creates an instance from its bean, calls the method, destroys the
   * instance. A failure fails the deployment, naming the handler.
   */
  void afterDeployment(@Observes AfterDeploymentValidation event, BeanManager beanManager) {
    for (HandlerInfo info : List.copyOf(handlers.values())) {
      Bean<?> bean = beans.get(info.beanClass());
      if (bean == null || !overridesPolicy(info.beanClass())) {
        continue;
      }
      CreationalContext<?> creation = beanManager.createCreationalContext(bean);
      try {
        Type type = bean.getTypes().contains(info.beanClass()) ? info.beanClass() : Object.class;
        handlers.put(
            info.typeName(),
            withPolicyMethod(
                info, () -> (Handler<?>) beanManager.getReference(bean, type, creation)));
      } catch (IllegalArgumentException e) {
        event.addDeploymentProblem(
            new DeploymentException(problem(info.beanClass(), e.getMessage()), e));
      } finally {
        creation.release();
      }
    }
  }

  /** The message of a deployment problem with {@code handler}. */
  public static String problem(Class<?> handler, String message) {
    return "Taskgate handler " + handler.getName() + ": " + message;
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

  /**
   * {@code handler}'s task type as a deployment reads it from the instance's class: its
   * {@code @TaskHandler} options, its {@code @RateLimit} or {@code rateLimitPolicy()}, its key
   * source and its job throttlers (for code outside the container: the standalone engine).
   *
   * @throws IllegalArgumentException naming the option and the value, as the deployment would fail
   */
  public static HandlerInfo describe(Handler<?> handler) {
    Class<?> beanClass = handler.getClass();
    TaskHandler options = beanClass.getAnnotation(TaskHandler.class);
    if (options == null) {
      throw new IllegalArgumentException(
          "it is not annotated @TaskHandler (a handler class carries it, with its options)");
    }
    HandlerInfo info = describe(beanClass, options);
    return overridesPolicy(beanClass) ? withPolicyMethod(info, () -> handler) : info;
  }

  public static HandlerInfo describe(Class<?> beanClass, TaskHandler options) {
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
    Optional<RateLimitPolicy> policy = annotationPolicy(beanClass);
    Optional<GateSpec> gate =
        overridesPolicy(beanClass)
            ? Optional.empty() // resolved after validation, from the handler's method
            : gate(taskType, beanClass, policy.orElse(null), GateSpec.PolicySource.ANNOTATION);
    Optional<ThrottlingSpec> throttling = ThrottlerSpecs.of(beanClass, taskType);
    HandlerInfo handler =
        new HandlerInfo(taskType, beanClass, options.queue(), retry, timeout, gate, throttling);
    handler.unique(); // checked at deployment: a bad @Unique fails it, naming the handler
    return handler;
  }

  /**
   * The handler's policy from its {@link RateLimit}, if it has one.
   *
   * @throws IllegalArgumentException naming the option and the value, if a value is invalid
   */
  static Optional<RateLimitPolicy> annotationPolicy(Class<?> beanClass) {
    RateLimit limit = beanClass.getAnnotation(RateLimit.class);
    if (limit == null) {
      return Optional.empty();
    }
    LimitText text =
        LimitText.of(
            LimitSource.annotation("@RateLimit"),
            option ->
                switch (option) {
                  case Limit.PERIOD -> limit.period();
                  case HORIZON -> limit.maxReservationHorizon();
                  default -> null;
                });
    Duration period = text.duration(Limit.PERIOD, "PT1M");
    Duration horizon = text.duration(HORIZON, "PT1H");
    int burst = limit.burst() == RateLimit.BURST_OF_PERMITS ? limit.permits() : limit.burst();
    try {
      return Optional.of(
          new RateLimitPolicy(
              limit.permits(),
              period,
              burst,
              limit.throttleRetries(),
              limit.startEmpty(),
              horizon,
              RateLimitPolicy.DEFAULT_IN_SLOT_WAIT,
              limit.overflow().behavior()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("@RateLimit: " + e.getMessage(), e);
    }
  }

  /**
   * {@code info} with the policy its handler's {@link Handler#rateLimitPolicy()} returns (null: the
   * annotation's, if any), called on the instance {@code handler} gives.
   *
   * @throws IllegalArgumentException naming the method and why, if it or the instance failed
   */
  static HandlerInfo withPolicyMethod(HandlerInfo info, Supplier<? extends Handler<?>> handler) {
    Handler<?> instance;
    try {
      instance = handler.get();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "rateLimitPolicy() is overridden, but no instance of the handler could be created at"
              + " deployment to call it: "
              + e,
          e);
    }
    RateLimitPolicy policy;
    try {
      policy = instance.rateLimitPolicy();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("rateLimitPolicy() threw " + e, e);
    }
    GateSpec.PolicySource source = GateSpec.PolicySource.HANDLER_METHOD;
    if (policy == null) {
      policy = annotationPolicy(info.beanClass()).orElse(null);
      source = GateSpec.PolicySource.ANNOTATION;
    }
    return info.withGate(gate(info.taskType(), info.beanClass(), policy, source));
  }

  /**
   * The gate of a task type with {@code policy} (none when it is null), keyed by the handler's
   * {@link Handler#rateLimitKey(Task)} override if there is one, else by the task's {@link
   * RateLimitedTask#rateLimitKey()}. With no key source: a warning, and no gate.
   */
  static Optional<GateSpec> gate(
      Class<? extends Task> taskType,
      Class<?> beanClass,
      RateLimitPolicy policy,
      GateSpec.PolicySource source) {
    if (policy == null) {
      return Optional.empty();
    }
    try {
      Limit.of(policy).requireTaskRate();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          (source == GateSpec.PolicySource.ANNOTATION ? "@RateLimit: " : "rateLimitPolicy(): ")
              + e.getMessage(),
          e);
    }
    GateSpec.KeySource keys;
    boolean overridesCost = declaredOutsideHandler(beanClass, "rateLimitCost", Task.class);
    if (overridesKey(beanClass)
        || (overridesCost && RateLimitedTask.class.isAssignableFrom(taskType))) {
      keys = GateSpec.KeySource.HANDLER;
      if (RateLimitedTask.class.isAssignableFrom(taskType) && overridesKey(beanClass)) {
        LOG.log(
            Level.CONFIG,
            "{0}: its rateLimitKey(task) replaces the key of {1}.rateLimitKey()",
            new Object[] {beanClass.getName(), taskType.getName()});
      }
    } else if (RateLimitedTask.class.isAssignableFrom(taskType)) {
      keys = GateSpec.KeySource.TASK;
    } else {
      LOG.warning(
          problem(
              beanClass,
              "task type "
                  + taskType.getName()
                  + " has a rate-limit policy but no key, so its tasks run unthrottled: implement"
                  + " io.taskgate.api.RateLimitedTask on "
                  + taskType.getSimpleName()
                  + " or override rateLimitKey("
                  + taskType.getSimpleName()
                  + ") in the handler"));
      return Optional.empty();
    }
    return Optional.of(new GateSpec(new RateLimitScope(taskType.getName(), policy), keys, source));
  }

  /** Whether the handler class overrides {@link Handler#rateLimitPolicy()}. */
  static boolean overridesPolicy(Class<?> beanClass) {
    return declaredOutsideHandler(beanClass, "rateLimitPolicy");
  }

  /** Whether the handler class overrides {@link Handler#rateLimitKey(Task)}. */
  static boolean overridesKey(Class<?> beanClass) {
    return declaredOutsideHandler(beanClass, "rateLimitKey", Task.class);
  }

  private static boolean declaredOutsideHandler(
      Class<?> beanClass, String method, Class<?>... parameters) {
    try {
      return beanClass.getMethod(method, parameters).getDeclaringClass() != Handler.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /**
   * The T of the {@code Handler<T>} that {@code type} or one of its superclasses implements, also
   * when a generic superclass implements {@code Handler<T>} and a subclass names T.
   */
  static Optional<Class<? extends Task>> taskTypeOf(Class<?> type) {
    Map<TypeVariable<?>, Type> named = new HashMap<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Type i : c.getGenericInterfaces()) {
        if (i instanceof ParameterizedType p && p.getRawType() == Handler.class) {
          Type argument = resolve(p.getActualTypeArguments()[0], named);
          if (argument instanceof Class<?> k && Task.class.isAssignableFrom(k)) {
            return Optional.of(k.asSubclass(Task.class));
          }
          return Optional.empty();
        }
      }
      if (c.getGenericSuperclass() instanceof ParameterizedType superclass
          && superclass.getRawType() instanceof Class<?> raw) {
        TypeVariable<?>[] variables = raw.getTypeParameters();
        Type[] arguments = superclass.getActualTypeArguments();
        for (int k = 0; k < variables.length; k++) {
          named.put(variables[k], resolve(arguments[k], named));
        }
      }
    }
    return Optional.empty();
  }

  private static Type resolve(Type type, Map<TypeVariable<?>, Type> named) {
    Type resolved = type;
    while (resolved instanceof TypeVariable<?> variable && named.containsKey(variable)) {
      resolved = named.get(variable);
    }
    return resolved;
  }
}
