package io.taskgate.core.limit;

/**
 * Where the text of a limit's options comes from, and how an error about one is worded: each
 * message names the source, the option and the value. {@link LimitText} asks it.
 */
@FunctionalInterface
public interface LimitSource {

  /** The message for {@code value} of {@code option}, which is not {@code expected}. */
  String unreadable(String option, String value, String expected);

  /** The message for {@code option}, which is required and was not given. */
  default String missing(String option, String expected) {
    return option + " must be given: " + expected;
  }

  /**
   * An annotation's attributes: {@code option @RateLimit(period) '1m' is not an ISO-8601 duration
   * such as PT1M}.
   *
   * @param annotation the annotation as the user writes it, {@code @RateLimit}
   */
  static LimitSource annotation(String annotation) {
    return (option, value, expected) ->
        "option " + annotation + "(" + option + ") '" + value + "' is not " + expected;
  }

  /**
   * Configuration keys, {@code prefix} and the option: {@code taskgate.limiter.quotes.burst =
   * 'lots' is not valid: expected a whole number}.
   */
  static LimitSource config(String prefix) {
    return (option, value, expected) ->
        prefix + option + " = '" + value + "' is not valid: expected " + expected;
  }

  /**
   * The fields of a JSON body: {@code permits must be a whole number, was 1.5}; {@code period is
   * required, an ISO-8601 duration such as PT1M}.
   */
  static LimitSource jsonFields() {
    return new LimitSource() {
      @Override
      public String unreadable(String option, String value, String expected) {
        return option + " must be " + expected + ", was " + value;
      }

      @Override
      public String missing(String option, String expected) {
        return option + " is required, " + expected;
      }
    };
  }
}
