package io.taskgate.engine;

import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import jakarta.servlet.ServletContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Starts the engine's workers once the application has initialised, so that the application's own
 * start-up code ({@code @Observes @Initialized(ApplicationScoped.class)}) has run before any
 * handler does. Tasks dispatched before then wait in their queues.
 *
 * <p>On Payara the web module's initialisation (the event whose payload is its {@code
 * ServletContext}) reaches only the observers of the web module's own classes, after the bean
 * archives in its libraries saw an earlier one. Two things call {@link #webInitialised}: Taskgate's
 * web module, which observes that event after every observer of the default priority, and {@link
 * WebModuleStarted}, a servlet context listener in this jar that a WAR carrying the jar in {@code
 * WEB-INF/lib} runs after the event's observers. An application with neither (an EAR whose web
 * modules do not include Taskgate's) starts {@value #FALLBACK_SECONDS} s after the bean archives
 * initialised.
 *
 * <p>The engine registers what to run ({@link #whenInitialised}); the signal may come before or
 * after that, and what is registered runs once, after both. The engine's singleton cannot be called
 * through the container while it is still being created, hence a callback rather than a call.
 */
@ApplicationScoped
public class ConsumerStart {
  private static final Logger LOG = Logger.getLogger(ConsumerStart.class.getName());

  /** Later than the default observer priority ({@code APPLICATION + 500}) and the platform's. */
  public static final int PRIORITY = Interceptor.Priority.PLATFORM_AFTER + 1000;

  /** How long after the bean archives' initialisation the workers start without a web module. */
  static final long FALLBACK_SECONDS = 10;

  @Resource ManagedScheduledExecutorService timers;

  private final List<Runnable> waiting = new ArrayList<>();
  private boolean initialised; // guarded by this
  private boolean fallbackSet; // guarded by this
  private String startedBy; // guarded by this

  void applicationInitialized(
      @Observes @Priority(PRIORITY) @Initialized(ApplicationScoped.class) Object event) {
    if (event instanceof ServletContext context) {
      webInitialised(context.getContextPath());
      return;
    }
    synchronized (this) {
      if (initialised || fallbackSet) {
        return;
      }
      fallbackSet = true;
    }
    timers.schedule(
        () -> {
          if (start("fallback")) {
            LOG.warning(
                "Taskgate started its workers "
                    + FALLBACK_SECONDS
                    + " s after the application's beans: no web module told it that the"
                    + " application had initialised");
          }
        },
        FALLBACK_SECONDS,
        TimeUnit.SECONDS);
  }

  /**
   * The web module at {@code contextPath} has initialised, its own observers included: the workers
   * may start.
   */
  public void webInitialised(String contextPath) {
    String by = "web module " + (contextPath.isEmpty() ? "/" : contextPath);
    if (start(by)) {
      LOG.info(() -> "Taskgate's workers start: the " + by + " has initialised");
    }
  }

  /**
   * What started the workers: {@code "web module <context path>"} (that web module said the
   * application had initialised), {@code "fallback"} (none did within {@value #FALLBACK_SECONDS}
   * s), or empty while they wait.
   */
  public synchronized Optional<String> startedBy() {
    return Optional.ofNullable(startedBy);
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

  private boolean start(String by) {
    List<Runnable> run;
    synchronized (this) {
      if (initialised) {
        return false;
      }
      initialised = true;
      startedBy = by;
      run = List.copyOf(waiting);
      waiting.clear();
    }
    run.forEach(Runnable::run);
    return true;
  }
}
