package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Tasks of this type are unique: while a task with the same unique key is in one of {@link #states}
 * (and, with a {@link #period}, was dispatched less than that long ago), dispatching another one
 * does what {@link #onConflict} says instead of adding a task. The database enforces it, so
 * instances dispatching at the same moment store one task between them.
 *
 * <p>The unique key is the dispatch's task key ({@link DispatchOptions#withTaskKey}); without one,
 * the whole task (its JSON): two tasks with equal fields are duplicates. {@link
 * DispatchOptions#unique} overrides this policy for one dispatch. Without {@code @Unique}, a task
 * key alone keeps one QUEUED task per key, replacing its payload ({@link UniquePolicy#TASK_KEY}).
 *
 * <pre>{@code
 * @TaskHandler
 * @Unique(onConflict = UniqueConflict.KEEP,
 *     states = {TaskStatus.QUEUED, TaskStatus.IN_PROGRESS, TaskStatus.COMPLETED},
 *     period = "PT24H") // a welcome mail at most once a day per key
 * public class WelcomeMailHandler implements Handler<WelcomeMail> { … }
 * }</pre>
 *
 * <p>A period that is not an ISO-8601 duration, or not positive, or no states, fails the
 * deployment, naming the handler.
 */
@Inherited
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface Unique {
  /** What a duplicate dispatch does. */
  UniqueConflict onConflict() default UniqueConflict.KEEP;

  /** The states of an existing task that make a new one a duplicate. */
  TaskStatus[] states() default {TaskStatus.QUEUED, TaskStatus.IN_PROGRESS};

  /**
   * For how long after the existing task was dispatched it makes duplicates, as an ISO-8601
   * duration ({@code PT1H}); empty (the default) for as long as it is in one of the states.
   */
  String period() default "";
}
