package io.taskgate.it.broken;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;

/** A handler whose rate-limit policy is invalid: the application must not deploy. */
public final class BadPolicy {
  private BadPolicy() {}

  /** A task throttled per tenant. */
  public record Report(String tenant) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return tenant;
    }
  }

  /** Zero permits per minute is not a rate. */
  @TaskHandler
  @RateLimit(permits = 0, period = "PT1M")
  public static class ReportHandler implements Handler<Report> {
    @Override
    public void handle(Report task, TaskContext context) {}
  }
}
