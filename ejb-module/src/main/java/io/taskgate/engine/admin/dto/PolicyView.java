package io.taskgate.engine.admin.dto;

import io.taskgate.api.RateLimitPolicy;
import java.time.Duration;

/**
 * A rate-limit policy as the view shows it.
 *
 * @param permits executions per period
 * @param period the period
 * @param burst executions that may run back to back
 * @param emissionInterval the steady spacing, period / permits
 * @param throttleRetries whether retries acquire budget
 * @param startEmpty whether new keys start without saved-up budget
 * @param maxReservationHorizon the farthest slot a task may wait for
 * @param overflow {@code WAIT_FOR_CAPACITY} or {@code DISCARD}
 */
public record PolicyView(
    int permits,
    Duration period,
    int burst,
    Duration emissionInterval,
    boolean throttleRetries,
    boolean startEmpty,
    Duration maxReservationHorizon,
    String overflow) {

  /** The view of {@code policy}. */
  public static PolicyView of(RateLimitPolicy policy) {
    return new PolicyView(
        policy.permits(),
        policy.period(),
        policy.burst(),
        Duration.ofNanos(policy.emissionIntervalNanos()),
        policy.throttleRetries(),
        policy.startEmpty(),
        policy.maxReservationHorizon(),
        policy.overflow().name());
  }
}
