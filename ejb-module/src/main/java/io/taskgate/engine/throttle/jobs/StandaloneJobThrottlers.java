package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.throttle.ThrottleProvider;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.MemoryThrottlerStore;
import java.time.InstantSource;

/**
 * The job throttlers of an engine outside the container (the standalone engine): the server's
 * throttles (mutexes, semaphores, fixed, sliding and dynamic windows) with their default settings
 * (wait, no max wait, not strict, a recheck every 30 s), over definitions and window counts kept in
 * memory, at the engine's clock; the waiters of what they free are woken through {@code throttles}.
 * Semaphores and windows are defined here, as {@code ThrottlingManager} does.
 */
public final class StandaloneJobThrottlers {
  private final JobThrottleProvider provider = new JobThrottleProvider();
  private final DefaultThrottlingManager manager;

  /**
   * The throttlers at {@code clock}, reporting to {@code events}, waking through {@code throttles}.
   */
  public StandaloneJobThrottlers(InstantSource clock, EngineEvents events, Throttles throttles) {
    MemoryThrottlerStore store = new MemoryThrottlerStore();
    JobThrottlers family = new JobThrottlers(store, clock, null, events, throttles);
    JobThrottleSettings defaults = JobThrottleSettings.DEFAULTS;
    family.configure(defaults.action(), defaults.maxWait(), defaults.strict(), defaults.recheck());
    provider.throttlers = family;
    manager = new DefaultThrottlingManager(store, family, clock, null, null, null);
  }

  /** The kind, as the throttle door takes it. */
  public ThrottleProvider provider() {
    return provider;
  }

  /** Defines semaphore {@code id} (see {@code ThrottlingManager#addOrUpdateSemaphore}). */
  public void addOrUpdateSemaphore(String id, int maxCount) {
    manager.addOrUpdateSemaphore(id, maxCount);
  }

  /** Defines window {@code id} (see {@code ThrottlingManager#addOrUpdateWindow}). */
  public void addOrUpdateWindow(ThrottlerKind kind, String id, WindowOptions options) {
    manager.addOrUpdateWindow(kind, id, options);
  }
}
