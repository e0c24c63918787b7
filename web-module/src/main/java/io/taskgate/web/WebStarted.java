package io.taskgate.web;

import io.taskgate.engine.ConsumerStart;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.servlet.ServletContext;

/**
 * Tells the engine that the web module has initialised, after every observer of the default
 * priority in it, so that no handler runs before the application's own start-up code.
 */
@ApplicationScoped
public class WebStarted {
  @Inject ConsumerStart consumers;

  void initialized(
      @Observes @Priority(ConsumerStart.PRIORITY) @Initialized(ApplicationScoped.class)
          ServletContext context) {
    consumers.webInitialised();
  }
}
