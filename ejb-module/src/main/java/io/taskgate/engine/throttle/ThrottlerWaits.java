package io.taskgate.engine.throttle;

import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** Which tasks wait for a job throttler on this instance, and for which: as the views read it. */
public interface ThrottlerWaits {
  /** The tasks waiting for a job throttler on this instance, or to try a window again. */
  Set<UUID> waitingIds();

  /** The job throttler task {@code taskId} waits for on this instance, if it waits. */
  Optional<String> waitingFor(UUID taskId);
}
