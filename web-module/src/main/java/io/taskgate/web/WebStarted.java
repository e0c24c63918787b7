package io.taskgate.web;

import io.taskgate.engine.admin.EngineMonitor;
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
  @Inject EngineMonitor engine;

  void initialized(
      @Observes @Priority(EngineMonitor.START_SIGNAL_PRIORITY) @Initialized(ApplicationScoped.class)
          ServletContext context) {
    engine.webModuleStarted(context.getContextPath());
  }
}
