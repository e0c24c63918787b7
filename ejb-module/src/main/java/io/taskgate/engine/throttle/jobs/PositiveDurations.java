package io.taskgate.engine.throttle.jobs;

import java.time.Duration;
import java.time.format.DateTimeParseException;

/** The positive durations of the throttling settings, refused with the setting's name. */
final class PositiveDurations {
  private PositiveDurations() {}

  /**
   * {@code text} as a positive ISO-8601 duration.
   *
   * @throws IllegalArgumentException naming {@code key} and the value if it is not one
   */
  static Duration parse(String key, String text) {
    try {
      Duration d = Duration.parse(text.trim());
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(
            "Taskgate: " + key + " must be a positive duration, was '" + text + "'");
      }
      return d;
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "Taskgate: " + key + " '" + text + "' is not an ISO-8601 duration such as PT10M", e);
    }
  }
}
