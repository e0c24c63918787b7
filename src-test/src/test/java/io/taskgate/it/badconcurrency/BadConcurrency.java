package io.taskgate.it.badconcurrency;

import io.taskgate.api.Concurrency;
import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;

/** A handler whose concurrency limit is invalid: the application must not deploy. */
public final class BadConcurrency {
  private BadConcurrency() {}

  /** An export of one tenant's data. */
  public record Export(String tenant) implements Task {}

  /** No export may ever run: a limit of 0 is refused. */
  @TaskHandler
  @Concurrency(limit = 0, key = "{tenant}")
  public static class ExportHandler implements Handler<Export> {
    @Override
    public void handle(Export task, TaskContext context) {}
  }
}
