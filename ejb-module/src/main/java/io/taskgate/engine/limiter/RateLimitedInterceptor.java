package io.taskgate.engine.limiter;

import io.taskgate.api.RateLimitExceededException;
import io.taskgate.api.RateLimited;
import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.core.ratelimit.RateLimitKeys;
import io.taskgate.core.time.Ticker;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Limits every call of a {@link RateLimited} method: takes a permit for the call's key before it
 * runs and gives it back when the call ends, however it ends (a concurrency limiter's permit; rate
 * limiters' permits come back with time). A method returning a {@link CompletionStage} ends when
 * its stage completes, and is refused with a failed stage rather than a throw.
 */
@RateLimited
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 200)
public class RateLimitedInterceptor {

  @Inject MethodLimits limits;
  @Inject Ticker ticker;

  @AroundInvoke
  Object limit(InvocationContext invocation) throws Exception {
    LimitedMethod plan = limits.plan(invocation.getMethod(), invocation.getTarget().getClass());
    NamedLimiter limiter = plan.limiter();
    String key = key(plan, invocation.getParameters());
    long now = ticker.nanos();
    RateLimitLease lease = limiter.tryAcquire(key, now);
    if (plan.http()) {
      LimitedResponses.record(limiter, key, now);
    }
    if (!lease.isAcquired()) {
      RateLimitExceededException refused =
          new RateLimitExceededException(
              limiter.name(),
              key,
              lease.retryAfterNanos().isPresent()
                  ? Duration.ofNanos(lease.retryAfterNanos().getAsLong())
                  : null,
              lease.reason().orElse("over the limit"));
      if (plan.async()) {
        return CompletableFuture.failedFuture(refused);
      }
      throw refused;
    }
    Object result;
    try {
      result = invocation.proceed();
    } catch (Exception | Error e) {
      lease.close();
      throw e;
    }
    if (plan.async() && result instanceof CompletionStage<?> stage) {
      stage.whenComplete((value, error) -> lease.close());
    } else {
      lease.close();
    }
    return result;
  }

  private static String key(LimitedMethod plan, Object[] args) {
    if (plan.key() == CallKey.NONE) {
      return NamedLimiter.NO_KEY;
    }
    String key = RateLimitKeys.normalize(plan.key().of(args), MethodLimits.MAX_KEY_LENGTH);
    return key == null ? NamedLimiter.NO_KEY : key;
  }
}
