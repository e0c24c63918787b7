package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.Strictness;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.engine.handler.ThrottlingSpec;
import io.taskgate.engine.throttle.JobThrottlerReads.Resolved;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.eclipse.microprofile.config.Config;

/**
 * The job throttlers' global defaults, read from MicroProfile Config and checked once (a bad value
 * fails the start, naming the key and the value), and a task type's throttling with them applied.
 * Immutable.
 *
 * @param action the default throttling action, WAIT or DROP
 * @param maxWait the default max wait; null for none
 * @param strict whether throttles are strict by default
 * @param recheck how often a task waiting for a release looks again by itself
 */
record JobThrottleSettings(
    ThrottlingAction action, Duration maxWait, boolean strict, Duration recheck) {

  /** Config key: the default throttling action, WAIT or DROP. */
  static final String ACTION_KEY = "taskgate.throttling.action";

  /** Config key: the default max wait (ISO-8601), unset for none. */
  static final String MAX_WAIT_KEY = "taskgate.throttling.max-wait";

  /** Config key: whether throttles are strict by default. */
  static final String STRICT_KEY = "taskgate.throttling.strict";

  /** Config key: how often a task waiting for a release looks again by itself. */
  static final String RECHECK_KEY = "taskgate.throttling.recheck";

  /** The defaults before any configuration: WAIT, no max wait, relaxed, a recheck every 30 s. */
  static final JobThrottleSettings DEFAULTS =
      new JobThrottleSettings(ThrottlingAction.WAIT, null, false, Duration.ofSeconds(30));

  /**
   * The settings {@code config} gives.
   *
   * @throws IllegalArgumentException naming the key and the value, if one is not valid
   */
  static JobThrottleSettings of(Config config) {
    String action = config.getOptionalValue(ACTION_KEY, String.class).orElse("WAIT").trim();
    ThrottlingAction parsed;
    try {
      parsed = ThrottlingAction.valueOf(action.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      parsed = ThrottlingAction.CONFIGURED;
    }
    if (parsed == ThrottlingAction.CONFIGURED) {
      throw new IllegalArgumentException(
          "Taskgate: " + ACTION_KEY + " must be WAIT or DROP, was '" + action + "'");
    }
    return new JobThrottleSettings(
        parsed,
        config
            .getOptionalValue(MAX_WAIT_KEY, String.class)
            .map(v -> positive(MAX_WAIT_KEY, v))
            .orElse(null),
        config.getOptionalValue(STRICT_KEY, Boolean.class).orElse(false),
        positive(RECHECK_KEY, config.getOptionalValue(RECHECK_KEY, String.class).orElse("PT30S")));
  }

  /**
   * {@code text} as a positive ISO-8601 duration.
   *
   * @throws IllegalArgumentException naming {@code key} and the value if it is not one
   */
  static Duration positive(String key, String text) {
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

  /** {@code spec} with these defaults applied. */
  Resolved resolve(ThrottlingSpec spec) {
    return new Resolved(
        spec.action() == ThrottlingAction.CONFIGURED ? action : spec.action(),
        spec.maxWait().orElse(maxWait),
        strict(spec));
  }

  /** Whether {@code spec}'s throttles are strict, this default applied. */
  boolean strict(ThrottlingSpec spec) {
    return spec.strictness() == Strictness.CONFIGURED
        ? strict
        : spec.strictness() == Strictness.STRICT;
  }
}
