package io.taskgate.engine.throttle;

import java.time.Instant;
import java.util.Objects;

/**
 * One mark of a rate-limited key's pacing timeline.
 *
 * @param kind what happened
 * @param at when
 * @param slot the slot involved, or null (a start that did not wait)
 */
public record PacingMark(Kind kind, Instant at, Instant slot) {
  /** Checks the kind and time are present. */
  public PacingMark {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(at, "at");
  }

  /** What a mark records. */
  public enum Kind {
    /** A task of the key started; {@code slot} is the slot it waited for, or null. */
    STARTED,
    /** A task of the key was deferred to {@code slot}. */
    RESERVED
  }
}
