package io.taskgate.it.failopen;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitFailOpen;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.logging.Logger;

/** A rate-limited task type and an observer that logs the fail-open events it sees. */
public final class FailOpen {
  private FailOpen() {}

  /** One per hour per key: a second task of a tracked key would park for an hour. */
  public record HourlyReport(String key) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT1H")
  public static class HourlyReportHandler implements Handler<HourlyReport> {
    @Override
    public void handle(HourlyReport task, TaskContext context) {}
  }

  /** A slot a minute, three back to back: the restart test's full bucket. */
  public record MinutelyBurst(String key) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  @TaskHandler
  @RateLimit(permits = 60, period = "PT1H", burst = 3)
  public static class MinutelyBurstHandler implements Handler<MinutelyBurst> {
    @Override
    public void handle(MinutelyBurst task, TaskContext context) {}
  }

  /** The same policy starting empty: no saved-up budget, after a restart too. */
  public record MinutelyStartEmpty(String key) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  @TaskHandler
  @RateLimit(permits = 60, period = "PT1H", burst = 3, startEmpty = true)
  public static class MinutelyStartEmptyHandler implements Handler<MinutelyStartEmpty> {
    @Override
    public void handle(MinutelyStartEmpty task, TaskContext context) {}
  }

  /** Logs each fail-open event with a marker the test looks for. */
  @ApplicationScoped
  public static class Events {
    private static final Logger LOG = Logger.getLogger(Events.class.getName());

    void onFailOpen(@Observes RateLimitFailOpen event) {
      LOG.info("FAIL-OPEN-EVENT " + event.message());
    }
  }
}
