package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * How the throttles of a handler's task type ({@link Mutex}, {@link Semaphore}, {@link
 * FixedWindow}, {@link SlidingWindow}, {@link DynamicWindow}) treat a task they do not let run now,
 * and when they are given back. Optional: without it, the global defaults in MicroProfile Config
 * apply ({@code taskgate.throttling.action}, {@code taskgate.throttling.max-wait}, {@code
 * taskgate.throttling.strict}).
 *
 * <pre>{@code
 * @TaskHandler
 * @Mutex("order-{orderId}")
 * @Throttling(action = ThrottlingAction.WAIT, maxWait = "PT10M", strictness = Strictness.STRICT)
 * public class ShipOrderHandler implements Handler<ShipOrder> { … }
 * }</pre>
 */
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface Throttling {

  /** What happens to a task a throttle does not let run now. */
  ThrottlingAction action() default ThrottlingAction.CONFIGURED;

  /**
   * How long a waiting task may wait (ISO-8601, positive), counted from the time it became due;
   * after that it is dropped as with {@link ThrottlingAction#DROP}. Empty: the global default
   * ({@code taskgate.throttling.max-wait}; unset: no limit).
   */
  String maxWait() default "";

  /** When mutexes and semaphores are given back; windows have nothing to give back. */
  Strictness strictness() default Strictness.CONFIGURED;
}
