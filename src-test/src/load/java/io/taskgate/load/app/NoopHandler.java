package io.taskgate.load.app;

import io.taskgate.api.Handler;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.inject.Inject;

/**
 * Records when the engine started the task (handle) and when it had stored it COMPLETED (the engine
 * calls onCompleted after that update).
 */
@TaskHandler
public class NoopHandler implements Handler<NoopTask> {
  @Inject LoadRun load;

  @Override
  public void handle(NoopTask task, TaskContext context) {
    load.started(task);
  }

  @Override
  public void onCompleted(NoopTask task, TaskContext context) {
    load.completed(task);
  }
}
