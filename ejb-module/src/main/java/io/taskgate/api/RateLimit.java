package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The rate-limit policy of a {@link TaskHandler}'s task type: at most {@link #permits} executions
 * per {@link #period} per key on average, each key with its own budget. The key comes from the task
 * ({@link RateLimitedTask}) or from the handler ({@link Handler#rateLimitKey(Task)}); tasks without
 * a key are not throttled.
 *
 * <pre>{@code
 * @TaskHandler
 * @RateLimit(permits = 15, period = "PT1M", burst = 15)
 * public class SyncTenantDataHandler implements Handler<SyncTenantData> { … }
 * }</pre>
 *
 * <p>Taskgate reads and checks it when the application deploys: an invalid value (permits or burst
 * below 1, a period that is not a positive ISO-8601 duration, a negative horizon, …) fails the
 * deployment with a message naming the handler class, the option and the value. A policy whose task
 * type has no key source (the task type does not implement {@link RateLimitedTask} and the handler
 * does not override {@link Handler#rateLimitKey(Task)}) logs one warning at deployment and
 * throttles nothing. A handler that overrides {@link Handler#rateLimitPolicy()} with a non-null
 * policy replaces this annotation. The options and their defaults are those of {@link
 * RateLimitPolicy}.
 */
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface RateLimit {

  /** The value of {@link #burst} that means "the same as {@link #permits}" (the default). */
  int BURST_OF_PERMITS = -1;

  /** Executions allowed per {@link #period} per key, at least 1. */
  int permits();

  /**
   * The period (ISO-8601, e.g. {@code "PT1M"}), positive. The steady spacing between executions of
   * one key is {@code period / permits}.
   */
  String period();

  /**
   * How many executions of one key may run back to back from budget saved up while it was idle, at
   * least 1; {@code 1} spaces executions strictly {@code period / permits} apart. Default ({@link
   * #BURST_OF_PERMITS}): the same as {@link #permits}.
   */
  int burst() default BURST_OF_PERMITS;

  /** Whether retry attempts acquire budget too (default true). */
  boolean throttleRetries() default true;

  /**
   * Whether a key seen for the first time (or after a restart with no budget saved for it) starts
   * with no saved-up budget (default false: it starts with the full burst).
   */
  boolean startEmpty() default false;

  /**
   * How far ahead a slot may be reserved (ISO-8601, zero or more, default {@code "PT1H"}): a task
   * whose key's next free slot is farther away fails with {@link RateLimitRejectedException}.
   */
  String maxReservationHorizon() default "PT1H";

  /**
   * What happens to a task whose key has no budget left (default {@link
   * Overflow#WAIT_FOR_CAPACITY}).
   */
  Overflow overflow() default Overflow.WAIT_FOR_CAPACITY;

  /** What happens to a task whose key has no budget left. */
  enum Overflow {
    /** Reserve the key's next free slot and run the task then (the default). */
    WAIT_FOR_CAPACITY(OverflowBehavior.WAIT_FOR_CAPACITY),
    /** Fail the task at once with {@link RateLimitRejectedException}: nothing is reserved. */
    DISCARD(OverflowBehavior.DISCARD);

    private final OverflowBehavior behavior;

    Overflow(OverflowBehavior behavior) {
      this.behavior = behavior;
    }

    /** The limiter's name for it. */
    public OverflowBehavior behavior() {
      return behavior;
    }
  }
}
