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
import java.util.concurrent.ExecutionException;

/**
 * Limits every call of a {@link RateLimited} method: takes a permit for the call's key before it
 * runs and gives it back when the call ends, however it ends (a concurrency limiter's permit; rate
 * limiters' permits come back with time). A call over the limit waits up to the limiter's {@code
 * maxWait} (blocking a synchronous caller), then is refused: its fallback answers, or {@link
 * RateLimitExceededException} is thrown. A method returning a {@link CompletionStage} never blocks
 * its caller: it ends when its stage completes, waits by returning a stage at once (its call runs
 * on a managed thread when the permit comes) and is refused with a failed stage.
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
    String key = key(plan.key(), invocation.getParameters());
    long now = ticker.nanos();
    limits.refreshIfDue(now);
    if (plan.http()) {
      LimitedResponses.record(limiter, key, now);
    }
    if (!plan.chained().isEmpty()) {
      return limitChained(invocation, plan, key, now);
    }
    if (plan.async()) {
      return limitLater(invocation, plan, key, now);
    }
    int cost = plan.cost().of(invocation.getParameters(), limiter);
    RateLimitLease lease =
        limiter.spec().waits()
            ? await(limiter.acquire(key, cost, now))
            : limiter.tryAcquire(key, cost, now);
    if (!lease.isAcquired()) {
      RateLimitExceededException refusal = refusal(limiter, key, lease);
      if (plan.fallback() != null) {
        return plan.fallback().call(invocation.getTarget(), invocation.getParameters(), refusal);
      }
      throw refusal;
    }
    return runHolding(invocation, lease, false);
  }

  /**
   * A method with several limits: runs only if every limit grants it. Each is probed first, taking
   * nothing; only when all would grant are the permits taken, in order (a limit that refuses then,
   * because a concurrent call took its permit, gives the call's other permits back where it can).
   */
  private static Object limitChained(
      InvocationContext invocation, LimitedMethod plan, String firstKey, long now)
      throws Exception {
    Object[] args = invocation.getParameters();
    int size = plan.chained().size() + 1;
    NamedLimiter[] limiters = new NamedLimiter[size];
    String[] keys = new String[size];
    int[] costs = new int[size];
    limiters[0] = plan.limiter();
    keys[0] = firstKey;
    for (int i = 1; i < size; i++) {
      LimitedMethod.Limit limit = plan.chained().get(i - 1);
      limiters[i] = limit.limiter();
      keys[i] = key(limit.key(), args);
    }
    for (int i = 0; i < size; i++) {
      costs[i] = plan.cost().of(args, limiters[i]);
    }
    RateLimitExceededException refusal = null;
    for (int i = 0; i < size && refusal == null; i++) {
      RateLimitLease probe = limiters[i].probe(keys[i], costs[i], now);
      if (!probe.isAcquired()) {
        limiters[i].countRefusal(now);
        refusal = refusal(limiters[i], keys[i], probe);
      }
    }
    RateLimitLease[] leases = new RateLimitLease[size];
    for (int i = 0; i < size && refusal == null; i++) {
      leases[i] = limiters[i].tryAcquire(keys[i], costs[i], now);
      if (!leases[i].isAcquired()) {
        refusal = refusal(limiters[i], keys[i], leases[i]);
        closeAll(leases);
      }
    }
    if (refusal != null) {
      if (plan.fallback() != null) {
        return plan.fallback().call(invocation.getTarget(), args, refusal);
      }
      if (plan.async()) {
        return CompletableFuture.failedFuture(refusal);
      }
      throw refusal;
    }
    return runHolding(invocation, RateLimitLease.acquired(1, () -> closeAll(leases)), plan.async());
  }

  private static void closeAll(RateLimitLease[] leases) {
    for (RateLimitLease lease : leases) {
      if (lease != null) {
        lease.close();
      }
    }
  }

  /**
   * Runs the call holding {@code lease}, given back when the call ends (for an asynchronous method,
   * when its stage completes).
   */
  private static Object runHolding(
      InvocationContext invocation, RateLimitLease lease, boolean async) throws Exception {
    Object result;
    try {
      result = invocation.proceed();
    } catch (Exception | Error e) {
      lease.close();
      throw e;
    }
    if (async && result instanceof CompletionStage<?> stage) {
      stage.whenComplete((value, error) -> lease.close());
    } else {
      lease.close();
    }
    return result;
  }

  /** Blocks until the waiting call has its answer; an interrupt withdraws it. */
  private static RateLimitLease await(CompletableFuture<RateLimitLease> permit)
      throws InterruptedException {
    try {
      return permit.get();
    } catch (InterruptedException e) {
      if (!permit.cancel(false)) {
        permit.join().close();
      }
      throw e;
    } catch (ExecutionException e) {
      throw new IllegalStateException("waiting for a permit failed", e.getCause());
    }
  }

  private Object limitLater(InvocationContext invocation, LimitedMethod plan, String key, long now)
      throws Exception {
    NamedLimiter limiter = plan.limiter();
    int cost = plan.cost().of(invocation.getParameters(), limiter);
    CompletableFuture<RateLimitLease> permit =
        limiter.spec().waits()
            ? limiter.acquire(key, cost, now)
            : CompletableFuture.completedFuture(limiter.tryAcquire(key, cost, now));
    if (permit.isDone()) {
      return runAsync(invocation, plan, key, permit.join());
    }
    return permit.thenComposeAsync(
        lease -> {
          try {
            return stage(runAsync(invocation, plan, key, lease));
          } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
          }
        },
        limits.asyncRunner());
  }

  /** Runs an asynchronous method's call with its answer from the limiter. */
  private static Object runAsync(
      InvocationContext invocation, LimitedMethod plan, String key, RateLimitLease lease)
      throws Exception {
    if (!lease.isAcquired()) {
      RateLimitExceededException refusal = refusal(plan.limiter(), key, lease);
      if (plan.fallback() != null) {
        return plan.fallback().call(invocation.getTarget(), invocation.getParameters(), refusal);
      }
      return CompletableFuture.failedFuture(refusal);
    }
    return runHolding(invocation, lease, true);
  }

  @SuppressWarnings("unchecked")
  private static CompletionStage<Object> stage(Object result) {
    return result == null
        ? CompletableFuture.completedFuture(null)
        : (CompletionStage<Object>) result;
  }

  private static RateLimitExceededException refusal(
      NamedLimiter limiter, String key, RateLimitLease lease) {
    return new RateLimitExceededException(
        limiter.name(),
        key,
        lease.retryAfterNanos().isPresent()
            ? Duration.ofNanos(lease.retryAfterNanos().getAsLong())
            : null,
        lease.reason().orElse("over the limit"));
  }

  private static String key(CallKey source, Object[] args) {
    if (source == CallKey.NONE) {
      return NamedLimiter.NO_KEY;
    }
    String key = RateLimitKeys.normalize(source.of(args), MethodLimits.MAX_KEY_LENGTH);
    return key == null ? NamedLimiter.NO_KEY : key;
  }
}
