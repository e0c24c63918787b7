package io.taskgate.engine.throttle;

import java.time.Instant;

/**
 * What a {@link ThrottleDecision.Run} holds until the attempt ends: handed back to the throttle
 * that gave it ({@link Throttle#release}). A throttle keeps what it needs in its own implementation
 * of this interface.
 */
public interface Permit {
  /**
   * The slot the attempt was held until before it was let run (a rate-limit slot it was parked
   * for), or null when it was not held; the handler sees it as {@code TaskContext.throttledUntil}.
   */
  default Instant heldUntil() {
    return null;
  }

  /** The permit of a throttle that has nothing to give back (a rate budget, spent by time). */
  Permit NOTHING =
      new Permit() {
        @Override
        public String toString() {
          return "Permit.NOTHING";
        }
      };
}
