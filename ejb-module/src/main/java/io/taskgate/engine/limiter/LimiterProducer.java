package io.taskgate.engine.limiter;

import io.taskgate.api.Limiter;
import io.taskgate.api.NamedRateLimiter;
import io.taskgate.core.time.Ticker;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Inject;

/** Produces {@code @Inject @Limiter("name") NamedRateLimiter}. */
@ApplicationScoped
public class LimiterProducer {

  @Inject MethodLimits limits;
  @Inject Ticker ticker;

  @Produces
  @Limiter("")
  NamedRateLimiter limiter(InjectionPoint injectionPoint) {
    String name = nameOf(injectionPoint);
    return new LimiterHandle(limits.named(name, String.valueOf(injectionPoint)), ticker);
  }

  /** The name the injection point's {@link Limiter} gives. */
  static String nameOf(InjectionPoint injectionPoint) {
    return injectionPoint.getQualifiers().stream()
        .filter(Limiter.class::isInstance)
        .map(q -> ((Limiter) q).value())
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(injectionPoint + " has no @Limiter"));
  }
}
