package io.taskgate.engine.time;

import io.taskgate.core.time.Ticker;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.InstantSource;

/**
 * The engine's two clocks, and the only place that reads the system's: the wall clock ({@link
 * InstantSource}, UTC instants for what is stored and shown) and the monotonic one ({@link Ticker},
 * nanoseconds for intervals and the timeline). Everything else injects them, so that tests can
 * replace them with clocks they move by hand.
 */
@ApplicationScoped
public class Clocks {

  @Produces
  @ApplicationScoped
  InstantSource clock() {
    return InstantSource.system();
  }

  /** Dependent: each user holds the plain function, no proxy between it and the reading. */
  @Produces
  Ticker ticker() {
    return System::nanoTime;
  }
}
