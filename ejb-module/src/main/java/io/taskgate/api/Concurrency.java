package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * At most {@code limit} tasks of this type with the same key run at once, on every instance
 * together when the instances share a data grid. The others wait, holding no worker, and the first
 * of them is woken when a running one ends, whatever the end (completed, failed, timed out,
 * cancelled). Each key has its own limit: while one key is at its limit, the tasks of the other
 * keys run. A task between two attempts (waiting for its retry) holds nothing.
 *
 * <p>The key is a template filled from the task record's components, as a {@link Mutex} id is:
 * {@code "{tenantId}"}, nested {@code "{order.tenantId}"}. Without a key, the limit counts every
 * task of the type. A limit below 1 or above {@link SettingRanges#MAX_COUNT}, or a key naming
 * nothing the task has, fails the deployment, naming the handler.
 *
 * <pre>{@code
 * @TaskHandler
 * @Concurrency(limit = 2, key = "{tenantId}")
 * public class ExportHandler implements Handler<Export> { … }
 * }</pre>
 */
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface Concurrency {

  /** How many tasks of one key may run at once. */
  int limit();

  /** The key template; empty (the default) for one limit over every task of the type. */
  String key() default "";
}
