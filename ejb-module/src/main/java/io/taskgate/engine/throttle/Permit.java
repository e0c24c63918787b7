package io.taskgate.engine.throttle;

/**
 * What a {@link ThrottleDecision.Run} holds until the attempt ends: handed back to the throttle
 * that gave it ({@link Throttle#release}). A throttle keeps what it needs in its own implementation
 * of this interface.
 */
public interface Permit {
  /** The permit of a throttle that has nothing to give back (a rate budget, spent by time). */
  Permit NOTHING =
      new Permit() {
        @Override
        public String toString() {
          return "Permit.NOTHING";
        }
      };
}
