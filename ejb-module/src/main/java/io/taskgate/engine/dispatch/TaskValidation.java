package io.taskgate.engine.dispatch;

import io.taskgate.api.InvalidTaskException;
import io.taskgate.api.InvalidTaskException.Violation;
import io.taskgate.api.Task;
import io.taskgate.core.throttle.ResourceTemplate;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.ThrottlerSpec;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.MessageInterpolator;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks a task against its type's Bean Validation constraints (annotations on the record's
 * components, such as {@code @NotNull}) before it is stored. Messages are in English, whatever the
 * server's locale, like every other message of the API.
 */
@ApplicationScoped
public class TaskValidation {
  static final int MAX_VALUE_LENGTH = 200;

  private final ValidatorFactory factory;

  private Validator validator;

  /** Whether a task type has constraints at all (on itself, a component, or cascaded). */
  private final ClassValue<Boolean> constrained =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          return validator.getConstraintsForClass(type).isBeanConstrained();
        }
      };

  /** For the CDI proxy. */
  protected TaskValidation() {
    this(null);
  }

  @Inject
  TaskValidation(ValidatorFactory factory) {
    this.factory = factory;
  }

  /**
   * Validation with the validators of {@code factory}, for code and tests outside the container.
   */
  public static TaskValidation of(ValidatorFactory factory) {
    TaskValidation validation = new TaskValidation(factory);
    validation.init();
    return validation;
  }

  @PostConstruct
  void init() {
    MessageInterpolator interpolator = factory.getMessageInterpolator();
    validator =
        factory
            .usingContext()
            .messageInterpolator(
                new MessageInterpolator() {
                  @Override
                  public String interpolate(String template, Context context) {
                    return interpolator.interpolate(template, context, Locale.ROOT);
                  }

                  @Override
                  public String interpolate(String template, Context context, Locale locale) {
                    return interpolator.interpolate(template, context, Locale.ROOT);
                  }
                })
            .getValidator();
  }

  /**
   * Checks {@code task}.
   *
   * @param where which task of a batch ({@code tasks[3]}), or null for a single task
   * @throws InvalidTaskException naming the task type, every field that breaks a constraint, the
   *     constraint and the value
   */
  public void check(Task task, String where) {
    if (!constrained.get(task.getClass())) {
      return; // nothing to check: a validation would walk the record for nothing
    }
    Set<ConstraintViolation<Task>> found = validator.validate(task);
    if (found.isEmpty()) {
      return;
    }
    List<Violation> violations =
        found.stream()
            .map(
                v ->
                    new Violation(
                        v.getPropertyPath().toString(), v.getMessage(), text(v.getInvalidValue())))
            .sorted(Comparator.comparing(Violation::field).thenComparing(Violation::message))
            .toList();
    throw new InvalidTaskException(task.getClass().getName(), where, violations);
  }

  /**
   * Checks that {@code task}'s throttler ids can be filled: a placeholder's value is present and
   * the id is at most 100 characters.
   *
   * @throws InvalidTaskException naming the throttler, the template and why
   */
  public static void checkThrottlers(Task task, HandlerInfo handler, String where) {
    if (handler.throttling().isEmpty()) {
      return;
    }
    List<Violation> violations = new ArrayList<>();
    for (ThrottlerSpec spec : handler.throttling().get().throttlers()) {
      for (ResourceTemplate template :
          Arrays.asList(spec.resource(), spec.owner(), spec.window())) {
        if (template == null || !template.isDynamic()) {
          continue;
        }
        try {
          template.fill(task);
        } catch (IllegalArgumentException e) {
          violations.add(new Violation(spec.kind().label(), e.getMessage(), template.text()));
        }
      }
    }
    if (!violations.isEmpty()) {
      throw new InvalidTaskException(task.getClass().getName(), where, violations);
    }
  }

  private static String text(Object value) {
    String text = String.valueOf(value);
    return text.length() <= MAX_VALUE_LENGTH ? text : text.substring(0, MAX_VALUE_LENGTH) + "…";
  }
}
