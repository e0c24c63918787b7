package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A sliding (or, with one bucket, fixed) window per sub-id, the sub-id filled from the task record
 * ({@code window = "tenant-{tenantId}"}): each tenant gets its own limit, optionally within a total
 * capacity shared by all of them and rebalanced as tenants come and go. Define it first with {@link
 * ThrottlingManager#addOrUpdateWindow} (kind {@link ThrottlerKind#DYNAMIC_WINDOW}).
 */
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface DynamicWindow {

  /** The dynamic window's id. */
  String value();

  /** The sub-window template, filled like a {@link Mutex} id. */
  String window();
}
