package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * At most {@code limit} starts per fixed interval (aligned on the epoch, UTC) under the named
 * window, across every task type that names it; a task over the limit waits for the next interval.
 * Define it first with {@link ThrottlingManager#addOrUpdateWindow} (kind {@link
 * ThrottlerKind#FIXED_WINDOW}).
 */
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface FixedWindow {

  /** The window's id. */
  String value();
}
