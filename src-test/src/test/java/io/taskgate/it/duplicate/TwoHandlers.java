package io.taskgate.it.duplicate;

import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;

/** Two handlers for one task type: the application must not deploy. */
public final class TwoHandlers {
  private TwoHandlers() {}

  /** The task both claim. */
  public record Invoice(String id) implements Task {}

  @TaskHandler
  public static class FirstHandler implements Handler<Invoice> {
    @Override
    public void handle(Invoice task, TaskContext context) {}
  }

  @TaskHandler
  public static class SecondHandler implements Handler<Invoice> {
    @Override
    public void handle(Invoice task, TaskContext context) {}
  }
}
