package io.taskgate.it.engine;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.inject.Inject;

/**
 * A rate-limited task for the throttled view's tests: the second task of a key parks 10 minutes.
 */
public final class WatchedTasks {
  private WatchedTasks() {}

  /** 1 per 10 minutes, burst 1, on the default queue: slots at +10, +20, +30 minutes. */
  public record Watched(String key, String id) implements GatedTasks.Keyed {}

  /** Records that it ran. */
  @TaskHandler
  @RateLimit(permits = 1, period = "PT10M")
  public static class WatchedHandler implements Handler<Watched> {
    @Inject Probe probe;

    @Override
    public void handle(Watched task, TaskContext context) {
      probe.record(task.id(), "handle");
    }
  }
}
