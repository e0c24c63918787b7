package io.taskgate.engine.limiter;

import io.taskgate.api.Limiter;
import io.taskgate.api.NamedRateLimiter;
import io.taskgate.api.RateLimited;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.enterprise.inject.spi.ProcessInjectionPoint;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import jakarta.interceptor.Interceptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the application's {@link RateLimited} methods when it deploys and builds each one's plan
 * then, so that an invalid limit (a bad value, a named limiter without permits, two keys, an
 * expression naming no parameter, one name declared two ways) fails the deployment with a message
 * naming the method, the option and the value, instead of failing its first call.
 */
public class LimitedMethodsExtension implements Extension {

  private final Map<Method, Class<?>> methods = new LinkedHashMap<>();
  private final List<InjectionPoint> limiterPoints = new ArrayList<>();
  private Bean<?> limitsBean;

  void onBean(@Observes ProcessManagedBean<?> event) {
    Class<?> beanClass = event.getAnnotatedBeanClass().getJavaClass();
    if (beanClass == MethodLimits.class) {
      limitsBean =
          event.getBean(); // looked up by its bean: another archive's manager may not see it
    }
    if (beanClass.isAnnotationPresent(Interceptor.class)) {
      return; // the interceptor carries its binding; it is not limited
    }
    boolean onClass = beanClass.getAnnotationsByType(RateLimited.class).length > 0;
    for (AnnotatedMethod<?> annotated : event.getAnnotatedBeanClass().getMethods()) {
      Method method = annotated.getJavaMember();
      int modifiers = method.getModifiers();
      if (method.getDeclaringClass() == Object.class
          || Modifier.isStatic(modifiers)
          || Modifier.isPrivate(modifiers)) {
        continue;
      }
      if (onClass || method.getAnnotationsByType(RateLimited.class).length > 0) {
        methods.put(method, beanClass);
      }
    }
  }

  void onInjectionPoint(@Observes ProcessInjectionPoint<?, NamedRateLimiter> event) {
    if (event.getInjectionPoint().getQualifiers().stream().anyMatch(Limiter.class::isInstance)) {
      limiterPoints.add(event.getInjectionPoint());
    }
  }

  void afterDeployment(@Observes AfterDeploymentValidation event, BeanManager beanManager) {
    if ((methods.isEmpty() && limiterPoints.isEmpty()) || limitsBean == null) {
      return;
    }
    MethodLimits limits =
        (MethodLimits)
            beanManager.getReference(
                limitsBean, MethodLimits.class, beanManager.createCreationalContext(limitsBean));
    methods.forEach(
        (method, beanClass) -> {
          try {
            limits.plan(method, beanClass);
          } catch (IllegalArgumentException e) {
            event.addDeploymentProblem(
                new DeploymentException("Taskgate rate limit: " + e.getMessage(), e));
          }
        });
    for (InjectionPoint point : limiterPoints) { // after the methods: they declare most limiters
      try {
        limits.named(LimiterProducer.nameOf(point), String.valueOf(point));
      } catch (IllegalArgumentException e) {
        event.addDeploymentProblem(
            new DeploymentException("Taskgate rate limit: " + e.getMessage(), e));
      }
    }
  }
}
