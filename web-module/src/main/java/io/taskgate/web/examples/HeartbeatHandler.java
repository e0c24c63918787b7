package io.taskgate.web.examples;

import io.taskgate.api.Handler;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import java.util.logging.Logger;

/** Logs each beat (level FINE). */
@TaskHandler
public class HeartbeatHandler implements Handler<Heartbeat> {
  private static final Logger LOG = Logger.getLogger(HeartbeatHandler.class.getName());

  @Override
  public void handle(Heartbeat task, TaskContext context) {
    LOG.fine(() -> "Taskgate example heartbeat, run " + (context.runs() + 1));
  }
}
