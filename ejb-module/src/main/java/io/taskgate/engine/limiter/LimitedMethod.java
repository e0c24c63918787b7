package io.taskgate.engine.limiter;

import io.taskgate.api.RateLimited;
import jakarta.ws.rs.HttpMethod;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;

/**
 * How calls of one {@link RateLimited} method are limited: its limiter, where its key comes from,
 * whether it answers with a {@link CompletionStage} (a refusal is then a failed stage) and whether
 * it is a JAX-RS resource method (its responses then carry the RateLimit headers).
 *
 * @param limiter the method's limiter
 * @param key where a call's key comes from
 * @param async whether the method returns a {@link CompletionStage}
 * @param http whether the method is a JAX-RS resource method
 */
public record LimitedMethod(NamedLimiter limiter, CallKey key, boolean async, boolean http) {

  /** {@code Class#method}: the default name of a method's limiter, and how errors name it. */
  public static String describe(Method method) {
    return method.getDeclaringClass().getName() + "#" + method.getName();
  }

  /**
   * The annotation that limits {@code method} of {@code beanClass}: the method's, else the class's.
   */
  public static RateLimited annotation(Method method, Class<?> beanClass) {
    RateLimited onMethod = method.getAnnotation(RateLimited.class);
    if (onMethod != null) {
      return onMethod;
    }
    RateLimited onClass = beanClass.getAnnotation(RateLimited.class);
    return onClass != null ? onClass : method.getDeclaringClass().getAnnotation(RateLimited.class);
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
