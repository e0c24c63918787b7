package io.taskgate.engine.limiter;

import io.taskgate.api.RateLimitExceededException;
import io.taskgate.api.RateLimited;
import jakarta.ws.rs.HttpMethod;
import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * How calls of one {@link RateLimited} method are limited: its limiter, where its key comes from,
 * whether it answers with a {@link CompletionStage} (a refusal is then a failed stage) and whether
 * it is a JAX-RS resource method (its responses then carry the RateLimit headers).
 *
 * @param limiter the method's limiter (the first, when it has several)
 * @param key where a call's key comes from, for {@code limiter}
 * @param chained the method's other limits, all-or-nothing with the first; empty for one
 * @param async whether the method returns a {@link CompletionStage}
 * @param http whether the method is a JAX-RS resource method
 * @param fallback what answers a refused call instead of the refusal; null: the refusal is thrown
 * @param cost how many permits a call takes, of each of its limits
 */
public record LimitedMethod(
    NamedLimiter limiter,
    CallKey key,
    List<Limit> chained,
    boolean async,
    boolean http,
    Fallback fallback,
    CallCost cost) {

  /**
   * One more limit of a method with several.
   *
   * @param limiter its limiter
   * @param key where a call's key comes from, for it
   */
  public record Limit(NamedLimiter limiter, CallKey key) {}

  /**
   * The method called instead of a refused one.
   *
   * @param method on the same bean, with the limited method's parameters
   * @param takesRefusal whether it also takes the {@link RateLimitExceededException}, last
   */
  public record Fallback(Method method, boolean takesRefusal) {

    /**
     * The fallback {@code name} of {@code limited} on {@code beanClass}.
     *
     * @throws IllegalArgumentException naming both methods, if there is none that fits
     */
    static Fallback of(Method limited, Class<?> beanClass, String name) {
      Class<?>[] parameters = limited.getParameterTypes();
      Class<?>[] withRefusal = Arrays.copyOf(parameters, parameters.length + 1);
      withRefusal[parameters.length] = RateLimitExceededException.class;
      for (Class<?> type = beanClass;
          type != null && type != Object.class;
          type = type.getSuperclass()) {
        for (Method candidate : type.getDeclaredMethods()) {
          if (!candidate.getName().equals(name)
              || !limited.getReturnType().isAssignableFrom(candidate.getReturnType())) {
            continue;
          }
          if (Arrays.equals(candidate.getParameterTypes(), parameters)
              || Arrays.equals(candidate.getParameterTypes(), withRefusal)) {
            candidate.setAccessible(true);
            return new Fallback(candidate, candidate.getParameterCount() > parameters.length);
          }
        }
      }
      throw new IllegalArgumentException(
          "@RateLimited method "
              + describe(limited)
              + ": fallback = '"
              + name
              + "' names no method of "
              + beanClass.getName()
              + " returning "
              + limited.getReturnType().getSimpleName()
              + " with the parameters "
              + Arrays.toString(parameters)
              + " (and optionally a last RateLimitExceededException)");
    }

    /** The fallback's answer to a call with {@code args} refused by {@code refusal}. */
    Object call(Object target, Object[] args, RateLimitExceededException refusal) throws Exception {
      Object[] with = args;
      if (takesRefusal) {
        with = Arrays.copyOf(args, args.length + 1);
        with[args.length] = refusal;
      }
      try {
        return method.invoke(target, with);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof Exception cause) {
          throw cause;
        }
        throw (Error) e.getCause();
      }
    }
  }

  /** {@code Class#method}: the default name of a method's limiter, and how errors name it. */
  public static String describe(Method method) {
    return method.getDeclaringClass().getName() + "#" + method.getName();
  }

  /**
   * The annotations that limit {@code method} of {@code beanClass}: the method's, else the class's;
   * empty when neither has any.
   */
  public static RateLimited[] annotations(Method method, Class<?> beanClass) {
    RateLimited[] onMethod = method.getAnnotationsByType(RateLimited.class);
    if (onMethod.length > 0) {
      return onMethod;
    }
    RateLimited[] onClass = beanClass.getAnnotationsByType(RateLimited.class);
    return onClass.length > 0
        ? onClass
        : method.getDeclaringClass().getAnnotationsByType(RateLimited.class);
  }

  /** The name of {@code method}'s limiter. */
  public static String limiterName(Method method, RateLimited limited) {
    return limited.value().isEmpty() ? describe(method) : limited.value();
  }

  static boolean isAsync(Method method) {
    return CompletionStage.class.isAssignableFrom(method.getReturnType());
  }

  static boolean isResourceMethod(Method method) {
    for (Annotation annotation : method.getAnnotations()) {
      if (annotation.annotationType().isAnnotationPresent(HttpMethod.class)) {
        return true;
      }
    }
    return false;
  }
}
