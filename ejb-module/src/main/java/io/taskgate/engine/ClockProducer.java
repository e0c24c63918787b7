package io.taskgate.engine;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.InstantSource;

/** The one clock of the engine; tests replace it with a settable one. */
@ApplicationScoped
public class ClockProducer {

  @Produces
  @ApplicationScoped
  InstantSource clock() {
    return InstantSource.system();
  }
}
