package io.taskgate.it.replaced;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.interceptor.Interceptor;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An application's own keyed limiter, enabled for the whole application as the guide says: the
 * first task of a key runs, every later one waits an hour (whatever the policy says), reservations
 * are kept and redeemed; it logs each reservation, and it cannot say what it holds (its stats
 * throw), which must not break the gate, the views or the metrics.
 */
@ApplicationScoped
@Alternative
@Priority(Interceptor.Priority.APPLICATION)
public class StrictLimiter implements KeyedRateLimiter {
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final Map<Object, Long> reservations = new ConcurrentHashMap<>();

  @Override
  public synchronized RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long nowEpochNanos) {
    System.out.println("REPLACED-LIMITER reserve " + key);
    Long slot = reservationId == null ? null : reservations.get(reservationId);
    if (slot != null) {
      if (nowEpochNanos >= slot) {
        reservations.remove(reservationId);
        return RateLimitDecision.runNow();
      }
      return RateLimitDecision.deferred(slot, nowEpochNanos);
    }
    if (seen.add(scope.name() + "/" + key)) {
      return RateLimitDecision.runNow();
    }
    long later = nowEpochNanos + HOUR;
    if (reservationId != null) {
      reservations.put(reservationId, later);
    }
    return RateLimitDecision.deferred(later, nowEpochNanos);
  }

  @Override
  public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos) {
    return seen.contains(scope.name() + "/" + key)
        ? RateLimitDecision.deferred(nowEpochNanos + HOUR, nowEpochNanos)
        : RateLimitDecision.runNow();
  }

  @Override
  public boolean release(RateLimitScope scope, String key, Object reservationId) {
    return reservations.remove(reservationId) != null;
  }

  @Override
  public int evictIdle(long nowEpochNanos) {
    return 0;
  }

  @Override
  public Stats stats() {
    throw new IllegalStateException("this limiter does not count");
  }

  /** A report per tenant, one per hour by its policy; the replacement decides. */
  public record Report(String key) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  @TaskHandler
  @RateLimit(permits = 1000, period = "PT1S")
  public static class ReportHandler implements Handler<Report> {
    @Override
    public void handle(Report task, TaskContext context) {
      System.out.println("REPLACED-RAN " + task.key());
    }
  }
}
