package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * At most {@code maxCount} tasks run at a time under the named semaphore, across every task type
 * that names it; the others wait, holding no worker, and are woken in arrival order as permits are
 * given back. Define it first with {@link ThrottlingManager#addOrUpdateSemaphore}: a task naming a
 * semaphore that does not exist fails with {@link UnknownThrottlerException}.
 *
 * <pre>{@code
 * @TaskHandler
 * @Semaphore("newsletter")
 * public class SendNewsletterHandler implements Handler<SendNewsletter> { … }
 * }</pre>
 */
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface Semaphore {

  /** The semaphore's id (no template: a semaphore is defined before it is used). */
  String value();

  /** Set {@link ThrottlerMode#RELEASE_ONLY} before removing the annotation. */
  ThrottlerMode mode() default ThrottlerMode.ACQUIRE_AND_RELEASE;
}
