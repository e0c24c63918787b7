package io.taskgate.engine.admin.dto;

import java.time.Duration;

/**
 * How one task type uses one job throttler, and what it did since this instance started.
 *
 * @param taskType the task type
 * @param throttle the throttle's name, {@code kind:template} ({@code mutex:order-{orderId}})
 * @param mode {@code ACQUIRE_AND_RELEASE} or {@code RELEASE_ONLY}
 * @param action {@code WAIT} or {@code DROP}, the global default applied
 * @param maxWait the max wait, null for none
 * @param strict whether permits are kept until the task's final state
 * @param acquired attempts it let run
 * @param waited attempts it made wait
 * @param dropped tasks it dropped
 */
public record ThrottlingView(
    String taskType,
    String throttle,
    String mode,
    String action,
    Duration maxWait,
    boolean strict,
    long acquired,
    long waited,
    long dropped) {}
