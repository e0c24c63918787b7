package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * At most one owner runs tasks under the same resource id at a time: tasks of this type (and of
 * every other type naming the same id) whose id is held wait, holding no worker, and the next is
 * woken when the holder ends. A mutex is created on first use.
 *
 * <p>The id is a template filled from the task record's components: {@code "order-{orderId}"},
 * nested {@code "{order.id}"}. Ids are case-insensitive and otherwise kept as they are ({@code
 * order/1} and {@code order_1} are two mutexes); an id longer than 100 characters or holding a
 * control character is refused at dispatch. Put it on the handler or on the task record.
 *
 * <pre>{@code
 * @TaskHandler
 * @Mutex("order-{orderId}")
 * public class ShipOrderHandler implements Handler<ShipOrder> { … }
 * }</pre>
 */
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface Mutex {

  /** The resource id template. */
  String value();

  /**
   * Who holds the mutex, a template like {@link #value}: empty (the default) for the task itself;
   * {@code "{batchId}"} for every task of a batch together (they run side by side, and other owners
   * wait until the last of them ends).
   */
  String owner() default "";

  /** Set {@link ThrottlerMode#RELEASE_ONLY} before removing the annotation. */
  ThrottlerMode mode() default ThrottlerMode.ACQUIRE_AND_RELEASE;
}
