package io.taskgate.api;

/**
 * A dispatch option Taskgate cannot take: a delay or instant too far from now to schedule, a task
 * key or queue name too long to store or with control characters, a recurrence whose first
 * occurrence is out of range. Nothing is stored.
 */
public class InvalidDispatchOptionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String option;
  private final String value;

  /**
   * @param option the option's name as the API spells it ({@code delay}, {@code at}, {@code queue},
   *     {@code taskKey}, {@code recurrence})
   * @param value the value given, as text
   * @param message what is wrong and what is allowed, naming the option and the value
   */
  public InvalidDispatchOptionException(String option, String value, String message) {
    super(message);
    this.option = option;
    this.value = value;
  }

  /**
   * The option's name: {@code delay}, {@code at}, {@code queue}, {@code taskKey} or {@code
   * recurrence}.
   */
  public String option() {
    return option;
  }

  /** The value given, as text. */
  public String value() {
    return value;
  }
}
