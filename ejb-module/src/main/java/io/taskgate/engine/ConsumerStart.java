package io.taskgate.engine;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import jakarta.servlet.ServletContext;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Starts the engine's workers once the application has initialised: it observes the application
 * scope's initialisation after every observer of the default priority, so that the application's
 * own start-up code ({@code @Observes @Initialized(ApplicationScoped.class)}) has run before any
 * handler does. Tasks dispatched before then wait in their queues. It waits for the web module's
 * initialisation (the event whose payload is its {@code ServletContext}): the application scope of
 * the bean archives is initialised earlier, before the web module's own observers ran.
 *
 * <p>The engine registers what to run ({@link #whenInitialised}); the event may come before or
 * after that, and what is registered runs once, after both. The engine's singleton cannot be called
 * through the container while it is still being created, hence a callback rather than a call.
 */
@ApplicationScoped
public class ConsumerStart {
  private static final Logger LOG = Logger.getLogger(ConsumerStart.class.getName());

  /** Later than the default observer priority ({@code APPLICATION + 500}) and the platform's. */
  static final int PRIORITY = Interceptor.Priority.PLATFORM_AFTER + 1000;

  private final List<Runnable> waiting = new ArrayList<>();
  private boolean initialised; // guarded by this

  void applicationInitialized(
      @Observes @Priority(PRIORITY) @Initialized(ApplicationScoped.class) ServletContext event) {
    LOG.fine(() -> "Taskgate starts consuming once " + event.getContextPath() + " is initialised");
    List<Runnable> run;
    synchronized (this) {
      if (initialised) {
        return;
      }
      initialised = true;
      run = List.copyOf(waiting);
      waiting.clear();
    }
    run.forEach(Runnable::run);
  }

  /** Runs {@code start} once the application has initialised: now, if it has. */
  public void whenInitialised(Runnable start) {
    synchronized (this) {
      if (!initialised) {
        waiting.add(start);
        return;
      }
    }
    start.run();
  }
}
