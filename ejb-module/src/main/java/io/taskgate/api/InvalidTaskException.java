package io.taskgate.api;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A task whose values break its type's constraints (Bean Validation annotations on the record's
 * components, such as {@code @NotNull}): refused at dispatch, nothing is stored.
 */
public class InvalidTaskException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String taskType;
  private final transient List<Violation> violations;

  /**
   * @param taskType the task type's class name
   * @param where which task of a batch ({@code tasks[3]}), or null for a single task
   * @param violations what is wrong, at least one
   */
  public InvalidTaskException(String taskType, String where, List<Violation> violations) {
    super(message(taskType, where, violations));
    this.taskType = taskType;
    this.violations = List.copyOf(violations);
  }

  /** The task type's class name. */
  public String taskType() {
    return taskType;
  }

  /** What is wrong, ordered by field. */
  public List<Violation> violations() {
    return violations;
  }

  /**
   * One broken constraint.
   *
   * @param field the property path within the task ({@code tenantId}, {@code address.city})
   * @param message the constraint's message ({@code must not be null})
   * @param value the value found, as text ({@code null} for none), shortened to 200 characters
   */
  public record Violation(String field, String message, String value) {
    /** "field message, was value". */
    @Override
    public String toString() {
      return field + " " + message + ", was " + value;
    }
  }

  private static String message(String taskType, String where, List<Violation> violations) {
    return "Invalid task "
        + taskType
        + (where == null ? "" : " (" + where + ")")
        + ": "
        + violations.stream().map(Violation::toString).collect(Collectors.joining("; "));
  }
}
