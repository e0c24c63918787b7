package io.taskgate.engine.handler;

import io.taskgate.api.DynamicWindow;
import io.taskgate.api.FixedWindow;
import io.taskgate.api.Mutex;
import io.taskgate.api.Semaphore;
import io.taskgate.api.SlidingWindow;
import io.taskgate.api.Strictness;
import io.taskgate.api.Task;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlerMode;
import io.taskgate.api.Throttling;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.core.throttle.JobKind;
import io.taskgate.core.throttle.ResourceTemplate;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a task type's job throttlers from its handler and its task record ({@link Mutex}, {@link
 * Semaphore}, {@link FixedWindow}, {@link SlidingWindow}, {@link DynamicWindow}, {@link
 * Throttling}) and checks them: a template naming nothing the task has, a semaphore or window id
 * with a placeholder, the same kind declared on both, an invalid max wait, or {@code @Throttling}
 * without a throttler is refused with a message naming the annotation and the value.
 */
final class ThrottlerSpecs {
  private ThrottlerSpecs() {}

  /** The task type's throttling, empty if it names no throttler. */
  static Optional<ThrottlingSpec> of(Class<?> beanClass, Class<? extends Task> taskType) {
    List<ThrottlerSpec> throttlers = new ArrayList<>();
    Mutex mutex = one(Mutex.class, beanClass, taskType);
    if (mutex != null) {
      throttlers.add(
          new ThrottlerSpec(
              ThrottlerKind.MUTEX,
              template("@Mutex", mutex.value(), taskType),
              mutex.owner().isEmpty() ? null : template("@Mutex(owner)", mutex.owner(), taskType),
              null,
              mutex.mode()));
    }
    Semaphore semaphore = one(Semaphore.class, beanClass, taskType);
    if (semaphore != null) {
      throttlers.add(
          fixed(
              ThrottlerKind.SEMAPHORE,
              "@Semaphore",
              semaphore.value(),
              taskType,
              semaphore.mode()));
    }
    FixedWindow fixedWindow = one(FixedWindow.class, beanClass, taskType);
    if (fixedWindow != null) {
      throttlers.add(
          fixed(
              ThrottlerKind.FIXED_WINDOW,
              "@FixedWindow",
              fixedWindow.value(),
              taskType,
              ThrottlerMode.ACQUIRE_AND_RELEASE));
    }
    SlidingWindow slidingWindow = one(SlidingWindow.class, beanClass, taskType);
    if (slidingWindow != null) {
      throttlers.add(
          fixed(
              ThrottlerKind.SLIDING_WINDOW,
              "@SlidingWindow",
              slidingWindow.value(),
              taskType,
              ThrottlerMode.ACQUIRE_AND_RELEASE));
    }
    DynamicWindow dynamic = one(DynamicWindow.class, beanClass, taskType);
    if (dynamic != null) {
      ThrottlerSpec id =
          fixed(
              ThrottlerKind.FIXED_WINDOW,
              "@DynamicWindow",
              dynamic.value(),
              taskType,
              ThrottlerMode.ACQUIRE_AND_RELEASE);
      throttlers.add(
          new ThrottlerSpec(
              ThrottlerKind.DYNAMIC_WINDOW,
              id.resource(),
              null,
              template("@DynamicWindow(window)", dynamic.window(), taskType),
              ThrottlerMode.ACQUIRE_AND_RELEASE));
    }
    Throttling options = one(Throttling.class, beanClass, taskType);
    if (throttlers.isEmpty()) {
      if (options != null) {
        throw new IllegalArgumentException(
            "@Throttling is declared but no throttler (@Mutex, @Semaphore, @FixedWindow,"
                + " @SlidingWindow, @DynamicWindow) is: remove it or add one");
      }
      return Optional.empty();
    }
    if (options == null) {
      return Optional.of(
          new ThrottlingSpec(
              throttlers, ThrottlingAction.CONFIGURED, Optional.empty(), Strictness.CONFIGURED));
    }
    return Optional.of(
        new ThrottlingSpec(
            throttlers, options.action(), maxWait(options.maxWait()), options.strictness()));
  }

  private static <A extends Annotation> A one(
      Class<A> annotation, Class<?> beanClass, Class<?> taskType) {
    A onHandler = beanClass.getAnnotation(annotation);
    A onTask = taskType.getAnnotation(annotation);
    if (onHandler != null && onTask != null && !onHandler.equals(onTask)) {
      throw new IllegalArgumentException(
          "@"
              + annotation.getSimpleName()
              + " is declared on both the handler ("
              + onHandler
              + ") and the task type "
              + taskType.getName()
              + " ("
              + onTask
              + "): keep one");
    }
    return onHandler != null ? onHandler : onTask;
  }

  private static ResourceTemplate template(String option, String text, Class<?> taskType) {
    try {
      ResourceTemplate template = ResourceTemplate.parse(text, taskType);
      if (!template.isDynamic()) {
        ResourceTemplate.normalise(text, text);
      }
      return template;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + " '" + text + "': " + e.getMessage(), e);
    }
  }

  private static ThrottlerSpec fixed(
      ThrottlerKind kind, String option, String id, Class<?> taskType, ThrottlerMode mode) {
    ResourceTemplate template = template(option, id, taskType);
    if (template.isDynamic()) {
      throw new IllegalArgumentException(
          option
              + " '"
              + id
              + "': a "
              + kind.label()
              + " is defined before it is used, so its id cannot have placeholders"
              + (JobKind.of(kind).windowPerValueElsewhere()
                  ? "; use @DynamicWindow(window = …) for a window per value"
                  : ""));
    }
    return new ThrottlerSpec(kind, template, null, null, mode);
  }

  private static Optional<Duration> maxWait(String text) {
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      Duration wait = Duration.parse(text);
      if (wait.isNegative() || wait.isZero()) {
        throw new IllegalArgumentException(
            "option @Throttling(maxWait) must be positive, was '" + text + "'");
      }
      return Optional.of(wait);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "option @Throttling(maxWait) '" + text + "' is not an ISO-8601 duration such as PT10M",
          e);
    }
  }
}
