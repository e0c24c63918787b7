package io.taskgate.web.examples;

import io.taskgate.api.Backoff;
import io.taskgate.api.Handler;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;

/** Fails attempts 1 and 2, succeeds on the 3rd: three attempts, half a second apart. */
@TaskHandler(maxAttempts = 3, backoff = Backoff.FIXED, retryDelay = "PT0.5S", jitter = 0)
public class UnreliableReportHandler implements Handler<UnreliableReport> {
  static final int FAILING_ATTEMPTS = 2;

  @Override
  public void handle(UnreliableReport task, TaskContext context) {
    if (context.attempt() <= FAILING_ATTEMPTS) {
      throw new IllegalStateException(
          "Example: report '"
              + task.name()
              + "' failed on purpose, attempt "
              + context.attempt()
              + " of "
              + context.maxAttempts());
    }
  }
}
