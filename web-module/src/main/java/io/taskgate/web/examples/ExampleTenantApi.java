package io.taskgate.web.examples;

import io.taskgate.core.limiter.PartitionedLimiter;
import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.core.limiter.SlidingLogLimiter;
import io.taskgate.core.limiter.SlidingLogLimiterOptions;
import io.taskgate.core.ratelimit.EpochNanos;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A simulated external API that allows each tenant {@value #CALLS_PER_MINUTE} calls in any minute
 * and fails the call beyond that, as real APIs do (HTTP 429). Taskgate's keyed gate exists to keep
 * tasks under such a limit instead of failing them.
 */
@ApplicationScoped
public class ExampleTenantApi {
  static final int CALLS_PER_MINUTE = 15;
  private static final int MAX_TENANTS = 10_000;

  @Inject InstantSource clock;

  private final PartitionedLimiter<UUID> limits =
      new PartitionedLimiter<>(
          tenant ->
              new SlidingLogLimiter(
                  new SlidingLogLimiterOptions(CALLS_PER_MINUTE, Duration.ofMinutes(1))),
          MAX_TENANTS);
  private final Map<UUID, AtomicLong> synced = new ConcurrentHashMap<>();

  /**
   * Syncs one tenant's data.
   *
   * @throws TooManyCallsException if the tenant has made {@value #CALLS_PER_MINUTE} calls in the
   *     last minute
   */
  public void sync(UUID tenantId) {
    RateLimitLease lease = limits.tryAcquire(tenantId, 1, EpochNanos.of(clock.instant()));
    if (!lease.isAcquired()) {
      throw new TooManyCallsException(tenantId, lease.retryAfter().orElse(Duration.ZERO));
    }
    synced.computeIfAbsent(tenantId, t -> new AtomicLong()).incrementAndGet();
  }

  /** How many syncs of this tenant succeeded. */
  public long successfulSyncs(UUID tenantId) {
    AtomicLong n = synced.get(tenantId);
    return n == null ? 0 : n.get();
  }

  /** The example API's "429 Too Many Requests". */
  public static class TooManyCallsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooManyCallsException(UUID tenantId, Duration retryAfter) {
      super(
          "Example tenant API: tenant "
              + tenantId
              + " made more than "
              + CALLS_PER_MINUTE
              + " calls in the last minute; retry after "
              + retryAfter);
    }
  }
}
