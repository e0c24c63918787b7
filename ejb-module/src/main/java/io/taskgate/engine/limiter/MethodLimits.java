package io.taskgate.engine.limiter;

import io.taskgate.api.RateLimited;
import io.taskgate.core.limiter.RateLimiter;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitKeys;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.engine.event.Counted;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.event.MinuteCounts.Count;
import io.taskgate.store.ThrottlerStore.RateOverride;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.security.enterprise.SecurityContext;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Method;
import java.security.Principal;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.Config;

/**
 * The limiters of the application's {@link RateLimited} methods: each method's plan (limiter, key,
 * kind) made once, on its first call or when the application deploys ({@link
 * LimitedMethodsExtension} builds every plan then, so that a bad one fails the deployment); one
 * {@link NamedLimiter} per name, shared by the methods naming it.
 */
@ApplicationScoped
public class MethodLimits {

  /** Keys longer than this are replaced by their SHA-256, as the task gate's. */
  static final int MAX_KEY_LENGTH = RateLimitKeys.DEFAULT_MAX_KEY_LENGTH;

  /** The caller's key when it is neither authenticated nor an HTTP client. */
  static final String ANONYMOUS = "anonymous";

  @Inject Config config;
  @Inject Ticker ticker;
  @Inject Instance<SecurityContext> security;
  @Inject Instance<HttpServletRequest> requests;

  /** Retries and times out waiting calls. */
  @Resource ManagedScheduledExecutorService timers;

  /** Runs the calls of asynchronous methods that waited for their permit. */
  @Resource ManagedExecutorService executor;

  private final Map<Method, LimitedMethod> plans = new ConcurrentHashMap<>();
  private final Map<String, Named> limiters = new ConcurrentHashMap<>();

  /** A limiter and the method whose annotation defined it, to name both when another disagrees. */
  private record Named(NamedLimiter limiter, String definedBy) {}

  /** The prefix of a limiter's run-time change among the stored rate-limit changes. */
  public static final String CHANGE_PREFIX = "limiter:";

  /** Run-time changes made on other instances are read this often. */
  static final long REFRESH_NANOS = 2_000_000_000L;

  /** Where each limiter's calls are counted per minute; none told when absent (tests). */
  @Inject EngineEvents events;

  private Consumer<Count> counted(String limiter) {
    EngineEvents channel = events;
    if (channel == null) {
      return count -> {};
    }
    return count -> channel.publish(Counted.ofLimiter(limiter, count, clock.instant()));
  }

  @Inject RatePolicies changes;
  @Inject Instance<KeyedRateLimiter> keyed;
  @Inject InstantSource clock;

  /** The budgets of limiters whose scope is the cluster; made on first use. */
  volatile SharedBudgets shared;

  /** When run-time changes are read next; {@link Long#MIN_VALUE}: at the first call. */
  private final AtomicLong nextRefresh = new AtomicLong(Long.MIN_VALUE);

  /**
   * The plan of {@code method} called on an instance of {@code beanClass}.
   *
   * @throws IllegalArgumentException naming the method, the option and the value, if its limit is
   *     invalid
   */
  public LimitedMethod plan(Method method, Class<?> beanClass) {
    LimitedMethod plan = plans.get(method);
    return plan != null ? plan : plans.computeIfAbsent(method, m -> newPlan(m, beanClass));
  }

  private LimitedMethod newPlan(Method method, Class<?> beanClass) {
    RateLimited[] all = LimitedMethod.annotations(method, beanClass);
    if (all.length == 0) {
      throw new IllegalArgumentException(
          LimitedMethod.describe(method) + " is intercepted but carries no @RateLimited");
    }
    String described = LimitedMethod.describe(method);
    List<LimitedMethod.Limit> limits = new ArrayList<>();
    String fallback = "";
    for (RateLimited limited : all) {
      if (all.length > 1 && limited.value().isEmpty()) {
        throw new IllegalArgumentException(
            "@RateLimited method "
                + described
                + " has "
                + all.length
                + " limits: give each a name (value) so that they keep apart");
      }
      NamedLimiter limiter =
          limiter(LimitedMethod.limiterName(method, limited), limited, described);
      if (all.length > 1 && limiter.spec().waits()) {
        throw new IllegalArgumentException(
            "@RateLimited method "
                + described
                + ": limiter "
                + limiter.name()
                + " waits (max-wait "
                + limiter.spec().maxWait()
                + "), but the limits of a method with several do not wait; set its maxWait to"
                + " PT0S");
      }
      limits.add(new LimitedMethod.Limit(limiter, CallKey.of(method, limited, this::callerKey)));
      fallback = fallback.isEmpty() ? limited.fallback() : fallback;
    }
    return new LimitedMethod(
        limits.get(0).limiter(),
        limits.get(0).key(),
        List.copyOf(limits.subList(1, limits.size())),
        LimitedMethod.isAsync(method),
        LimitedMethod.isResourceMethod(method),
        fallback.isEmpty() ? null : LimitedMethod.Fallback.of(method, beanClass, fallback),
        CallCost.of(method));
  }

  private NamedLimiter limiter(String name, RateLimited limited, String method) {
    LimitSpec spec = spec(name, limited);
    Named named =
        limiters.computeIfAbsent(
            name,
            n ->
                new Named(
                    new NamedLimiter(
                        spec, ticker::nanos, timers, this::sharedBudget, counted(spec.name())),
                    method));
    if (!named.limiter().declared().equals(spec)) {
      throw new IllegalArgumentException(
          "limiter "
              + name
              + " is declared differently by "
              + named.definedBy()
              + " ("
              + named.limiter().declared()
              + ") and by "
              + method
              + " ("
              + spec
              + "); declare it once (or in "
              + LimitSpec.PREFIX
              + name
              + ".*) and name it elsewhere");
    }
    return named.limiter();
  }

  private LimitSpec spec(String name, RateLimited limited) {
    return LimitSpec.of(
        name,
        limited,
        option ->
            config
                .getOptionalValue(LimitSpec.PREFIX + name + "." + option, String.class)
                .orElse(null));
  }

  /**
   * Reads the run-time changes of limits when they are due (every {@link #REFRESH_NANOS}, so that a
   * change made on another instance arrives), off the caller's thread.
   */
  void refreshIfDue(long nowNanos) {
    long due = nextRefresh.get();
    if ((due != Long.MIN_VALUE && nowNanos - due < 0)
        || !nextRefresh.compareAndSet(due, nowNanos + REFRESH_NANOS)
        || changes == null) {
      return;
    }
    try {
      executor.execute(this::applyChanges);
    } catch (RuntimeException e) {
      nextRefresh.set(Long.MIN_VALUE); // no executor now: try again on the next call
    }
  }

  /** Gives each limiter its run-time change, or its declared limit back when it has none. */
  public synchronized void applyChanges() {
    Map<String, RateOverride> all = changes.overrides();
    for (Named named : limiters.values()) {
      RateOverride change = all.get(CHANGE_PREFIX + named.limiter().name());
      LimitSpec wanted =
          change == null
              ? named.limiter().declared()
              : named.limiter().declared().withLimit(RatePolicies.limit(change));
      if (!wanted.equals(named.limiter().spec())) {
        named.limiter().update(wanted);
      }
    }
  }

  /**
   * Limiter {@code name} for {@code injectionPoint}: the one {@code @RateLimited} methods declared,
   * or one from MicroProfile Config alone.
   *
   * @throws IllegalArgumentException naming the injection point, if neither defines it
   */
  public NamedLimiter named(String name, String injectionPoint) {
    Named existing = limiters.get(name);
    if (existing != null) {
      return existing.limiter();
    }
    try {
      return limiter(name, CONFIG_ONLY, injectionPoint);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "@Limiter(\"" + name + "\") at " + injectionPoint + ": " + e.getMessage(), e);
    }
  }

  /** The options of a limiter defined by config alone: {@code @RateLimited}'s defaults. */
  private static final RateLimited CONFIG_ONLY = Defaults.annotation();

  /** Holds a {@code @RateLimited} with every default; not a bean, never called. */
  private static final class Defaults {
    @RateLimited
    static void declared() {}

    static RateLimited annotation() {
      try {
        return Defaults.class.getDeclaredMethod("declared").getAnnotation(RateLimited.class);
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** The limiter named {@code name}, if a method or an injection point declared it. */
  public Optional<NamedLimiter> find(String name) {
    return Optional.ofNullable(limiters.get(name)).map(Named::limiter);
  }

  /** The limit {@code name} was declared with, before any run-time change. */
  public Optional<LimitSpec> declared(String name) {
    return find(name).map(NamedLimiter::declared);
  }

  /** Key {@code key}'s budget under {@code spec}, kept by the engine's keyed limiter. */
  private RateLimiter sharedBudget(LimitSpec spec, String key) {
    SharedBudgets budgets = shared;
    if (budgets == null) {
      budgets = new ClusterBudgets(keyed.get(), clock);
      shared = budgets;
    }
    return budgets.of(spec, key);
  }

  /** Runs the calls of asynchronous methods that waited for their permit. */
  Executor asyncRunner() {
    return executor;
  }

  /** The limiters made so far, by name. */
  public List<NamedLimiter> limiters() {
    List<NamedLimiter> all = new ArrayList<>();
    limiters.values().forEach(n -> all.add(n.limiter()));
    all.sort(Comparator.comparing(NamedLimiter::name));
    return all;
  }

  /**
   * The key of the current caller: the authenticated caller's name, else the HTTP client's address
   * ({@code ip:} and the address), else {@code anonymous}.
   */
  String callerKey() {
    try {
      Principal principal = security.get().getCallerPrincipal();
      String name = principal == null ? null : principal.getName();
      if (name != null && !name.isEmpty()) {
        return name;
      }
    } catch (RuntimeException e) {
      // no security context on this thread: try the HTTP request
    }
    try {
      return "ip:" + requests.get().getRemoteAddr();
    } catch (RuntimeException e) {
      return ANONYMOUS;
    }
  }
}
