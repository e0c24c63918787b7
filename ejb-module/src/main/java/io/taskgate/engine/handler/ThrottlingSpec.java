package io.taskgate.engine.handler;

import io.taskgate.api.Strictness;
import io.taskgate.api.ThrottlingAction;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The job throttlers of a task type and how they treat its tasks, read from the handler and the
 * task type when the application deploys; {@code CONFIGURED} values take the global defaults at run
 * time.
 *
 * @param throttlers the throttlers, at least one
 * @param action what happens to a task a throttler does not let run now
 * @param maxWait how long a task may wait before it is dropped; empty: the global default
 * @param strictness when mutexes and semaphores are given back
 */
public record ThrottlingSpec(
    List<ThrottlerSpec> throttlers,
    ThrottlingAction action,
    Optional<Duration> maxWait,
    Strictness strictness) {

  /** Checks what must be present. */
  public ThrottlingSpec {
    throttlers = List.copyOf(throttlers);
    if (throttlers.isEmpty()) {
      throw new IllegalArgumentException("no throttler");
    }
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(maxWait, "maxWait");
    Objects.requireNonNull(strictness, "strictness");
  }

  /** Whether any of them is held while tasks run (a mutex or semaphore). */
  public boolean holds() {
    return throttlers.stream().anyMatch(ThrottlerSpec::holds);
  }
}
