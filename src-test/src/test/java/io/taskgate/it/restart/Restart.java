package io.taskgate.it.restart;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.TaskReceipt;
import io.taskgate.it.ledger.Ledger;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What the restart test runs: one key's tasks, parked, running and interrupted across restarts. */
public final class Restart {
  private Restart() {}

  /** A task of {@code key} that works {@code workMillis}. */
  public interface Paced extends RateLimitedTask {
    String id();

    String key();

    int workMillis();

    @Override
    default String rateLimitKey() {
      return key();
    }
  }

  /** Starts with a full bucket: 4 a second, 3 back to back. */
  public record Full(String id, String key, int workMillis) implements Paced {}

  /** Starts empty (after every restart too): 2 a second, 5 back to back once saved up. */
  public record Empty(String id, String key, int workMillis) implements Paced {}

  /** Starts empty: 4 a second, one at a time. */
  public record Even(String id, String key, int workMillis) implements Paced {}

  /**
   * Starts full: 3 a minute, 3 back to back. Its burst spans a minute, longer than a restart takes:
   * a key that started its burst before a restart must not start a second one after it.
   */
  public record Slow(String id, String key, int workMillis) implements Paced {}

  /**
   * Writes each start to the ledger, before any work, as {@code start <task id> <type> <key> <µs>
   * <attempt>}.
   */
  abstract static class Logged<T extends Paced> implements Handler<T> {
    @Override
    public void handle(T task, TaskContext context) throws Exception {
      Instant now = Instant.now();
      Ledger.write(
          "start "
              + context.taskId()
              + " "
              + task.getClass().getSimpleName()
              + " "
              + task.key()
              + " "
              + ChronoUnit.MICROS.between(Instant.EPOCH, now)
              + " "
              + context.attempt());
      Thread.sleep(task.workMillis());
    }
  }

  @TaskHandler
  @RateLimit(permits = 4, period = "PT1S", burst = 3)
  public static class FullHandler extends Logged<Full> {}

  @TaskHandler
  @RateLimit(permits = 2, period = "PT1S", burst = 5, startEmpty = true)
  public static class EmptyHandler extends Logged<Empty> {}

  @TaskHandler
  @RateLimit(permits = 4, period = "PT1S", burst = 1, startEmpty = true)
  public static class EvenHandler extends Logged<Even> {}

  @TaskHandler
  @RateLimit(permits = 3, period = "PT1M", burst = 3)
  public static class SlowHandler extends Logged<Slow> {}

  /**
   * {@code POST /api/restart-test/batch?type=full|empty|even|slow&n=&key=&prefix=&work=}: one
   * {@code dispatchAll} of n tasks of one key.
   */
  @Path("restart-test/batch")
  public static class BatchResource {
    @Inject TaskDispatcher dispatcher;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, List<String>> batch(
        @QueryParam("type") String type,
        @QueryParam("n") int n,
        @QueryParam("key") String key,
        @QueryParam("prefix") String prefix,
        @QueryParam("work") int work) {
      List<Task> tasks = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String id = prefix + "-" + i;
        tasks.add(
            switch (type) {
              case "full" -> new Full(id, key, work);
              case "empty" -> new Empty(id, key, work);
              case "slow" -> new Slow(id, key, work);
              default -> new Even(id, key, work);
            });
      }
      List<String> ids = new ArrayList<>();
      for (TaskReceipt receipt : dispatcher.dispatchAll(tasks, DispatchOptions.now())) {
        ids.add(receipt.taskId().toString());
      }
      return Map.of("ids", ids);
    }
  }
}
