package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Stereotype;
import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Marks a class implementing {@link Handler} as the handler of its task type, and carries its
 * options. It is a CDI stereotype: it makes the class a bean (default scope {@link Dependent}: one
 * instance per attempt, unless the class declares another scope) and binds Taskgate's interceptor
 * to it, which times each attempt and enforces its timeout. Taskgate discovers every bean with it
 * at deployment and checks it: a task type with two handlers, a handler whose task type cannot be
 * resolved, or an invalid option fails the deployment with a message naming the class, the option
 * and the value.
 *
 * <p>Durations are ISO-8601 strings ({@code "PT30S"}, {@code "PT1M"}); an empty string means
 * "none".
 */
@Stereotype
@Dependent
@HandlerInterception
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface TaskHandler {

  /** The queue tasks of this type run on, unless a dispatch names another. */
  String queue() default "default";

  /** How many attempts in all, at least 1 (1 = no retry). */
  int maxAttempts() default 1;

  /** How the delay between attempts grows. */
  Backoff backoff() default Backoff.EXPONENTIAL;

  /** The delay before the first retry (ISO-8601). */
  String retryDelay() default "PT1S";

  /** The longest delay between attempts (ISO-8601). */
  String maxRetryDelay() default "PT5M";

  /** Random spread of each delay, from 0 (none) to 1 (up to ±100%). */
  double jitter() default 0.2;

  /** How long one attempt may run before it is interrupted and counted as failed; "" = no limit. */
  String timeout() default "";
}
