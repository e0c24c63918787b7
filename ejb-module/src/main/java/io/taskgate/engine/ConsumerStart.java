package io.taskgate.engine;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.util.logging.Logger;

/**
 * Starts the engine's workers once the application has initialised: it observes the application
 * scope's initialisation after every observer of the default priority, so that the application's
 * own start-up code ({@code @Observes @Initialized(ApplicationScoped.class)}) has run before any
 * handler does. Tasks dispatched before then wait in their queues.
 */
@ApplicationScoped
public class ConsumerStart {
  private static final Logger LOG = Logger.getLogger(ConsumerStart.class.getName());

  /** Later than the default observer priority ({@code APPLICATION + 500}) and the platform's. */
  static final int PRIORITY = Interceptor.Priority.PLATFORM_AFTER + 1000;

  @Inject TaskEngine engine;

  void applicationInitialized(
      @Observes @Priority(PRIORITY) @Initialized(ApplicationScoped.class) Object event) {
    LOG.fine(() -> "Taskgate starts consuming on " + event);
    engine.startConsuming();
  }
}
