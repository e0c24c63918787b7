package io.taskgate.engine.limiter;

import io.taskgate.core.limit.Limit;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.store.ThrottlerStore;
import io.taskgate.store.ThrottlerStore.RateOverride;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Run-time changes of a named limiter's limit ({@code @RateLimited}, {@code @Limiter}), each
 * audited as made by {@code by}: stored as a rate override named {@link MethodLimits#CHANGE_PREFIX}
 * + the limiter's name, applied on this instance at once and on the others when they read the
 * changes again.
 */
@ApplicationScoped
public class LimiterChanges {
  private static final Logger LOG = Logger.getLogger(LimiterChanges.class.getName());

  @Inject ThrottlerStore store;
  @Inject InstantSource clock;
  @Inject RatePolicies rates;
  @Inject MethodLimits limits;

  /**
   * Changes limiter {@code name}'s limit, audited as {@code by}; returns the limit it now has.
   *
   * @throws IllegalArgumentException if there is no such limiter or a value is invalid
   */
  public LimitSpec set(String name, int permits, Duration period, int burst, String by) {
    declared(name);
    return set(name, new Limit(permits, period, burst), by);
  }

  /**
   * Changes limiter {@code name}'s limit to {@code limit}, audited as {@code by}; returns the limit
   * it now has.
   *
   * @throws IllegalArgumentException if there is no such limiter or its algorithm refuses the limit
   */
  public LimitSpec set(String name, Limit limit, String by) {
    LimitSpec changed = declared(name).withLimit(limit);
    RateOverride override = RatePolicies.override(MethodLimits.CHANGE_PREFIX + name, null, limit);
    Optional<RateOverride> before = store.putRateOverride(override, by, clock.instant());
    rates.reload(clock.instant());
    limits.applyChanges();
    if (before.isEmpty() || !before.get().equals(override)) {
      LOG.info(
          () ->
              "Taskgate: limiter "
                  + name
                  + " set by "
                  + by
                  + " to "
                  + override.describe()
                  + before.map(b -> " (was " + b.describe() + ")").orElse(""));
    }
    return changed;
  }

  /**
   * Gives limiter {@code name} its declared limit back, audited as {@code by}; false if it had it.
   *
   * @throws IllegalArgumentException if there is no such limiter
   */
  public boolean reset(String name, String by) {
    declared(name);
    boolean removed =
        store
            .removeRateOverride(MethodLimits.CHANGE_PREFIX + name, null, by, clock.instant())
            .isPresent();
    rates.reload(clock.instant());
    limits.applyChanges();
    return removed;
  }

  private LimitSpec declared(String name) {
    return limits
        .declared(name)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no limiter is named "
                        + name
                        + ": name one with @RateLimited or @Limiter (the limiters are listed at"
                        + " /api/limiters)"));
  }
}
