package io.taskgate.load.app;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.inject.Inject;

/** 200 per second per key, 5 back to back: a slot every 5 ms. Records when each task started. */
@TaskHandler
@RateLimit(permits = PacedHandler.PERMITS, period = "PT1S", burst = PacedHandler.BURST)
public class PacedHandler implements Handler<PacedTask> {
  static final int PERMITS = 200;
  static final int BURST = 5;

  @Inject PacingRun pacing;

  @Override
  public void handle(PacedTask task, TaskContext context) {
    pacing.started(task, context.throttledUntil().orElse(null));
  }
}
