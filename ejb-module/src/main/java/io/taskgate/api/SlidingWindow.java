package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * At most {@code limit} starts in any {@code buckets} consecutive buckets of {@code interval /
 * buckets} each under the named window: a start counts in every interval its bucket belongs to.
 * Define it first with {@link ThrottlingManager#addOrUpdateWindow} (kind {@link
 * ThrottlerKind#SLIDING_WINDOW}).
 */
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface SlidingWindow {

  /** The window's id. */
  String value();
}
