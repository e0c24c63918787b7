package io.taskgate.core.limit;

/**
 * A limit's option that cannot be read or is out of its rules: the message names where it came
 * from, the option and the value; {@link #option()} and {@link #value()} tell them to a caller that
 * reports them apart (the REST API's problem names the field).
 */
public class InvalidLimitException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String option;
  private final String value;

  /**
   * @param option the option, as its source names it
   * @param value the value given, as text; null when none was
   * @param message the whole message
   */
  public InvalidLimitException(String option, String value, String message) {
    this(option, value, message, null);
  }

  /** With the exception that made the value unreadable. */
  public InvalidLimitException(String option, String value, String message, Throwable cause) {
    super(message, cause);
    this.option = option;
    this.value = value;
  }

  /** The option, as its source names it. */
  public String option() {
    return option;
  }

  /** The value given, as text; null when none was. */
  public String value() {
    return value;
  }
}
