package io.taskgate.engine.queue;

import io.taskgate.core.time.Ticker;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import org.eclipse.microprofile.config.Config;

/** Wires {@link TaskQueues} by hand for tests outside this package, as CDI would. */
public final class QueueWiring {
  private QueueWiring() {}

  /** New queues reading {@code config}, running workers on {@code executor}; not opened yet. */
  public static TaskQueues queues(Config config, ManagedExecutorService executor, Ticker ticker) {
    QueueSettings settings = new QueueSettings();
    settings.config = config;
    TaskQueues queues = new TaskQueues();
    queues.ticker = ticker;
    queues.settings = settings;
    queues.executor = executor;
    return queues;
  }
}
