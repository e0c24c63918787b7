package io.taskgate.it.upgrade;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Recurrence;
import io.taskgate.api.Semaphore;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskHandler;
import io.taskgate.it.ledger.Ledger;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * The tasks of the upgrade test. Every handler writes {@code start <task id> <id> <attempt> <key or
 * -> <µs since the epoch>} to the ledger before it works, and {@code end <task id> <id>} after.
 */
public final class Upgrade {
  private Upgrade() {}

  static void start(TaskContext context, String id, String key) {
    Ledger.write(
        "start "
            + context.taskId()
            + " "
            + id
            + " "
            + context.attempt()
            + " "
            + (key == null ? "-" : key)
            + " "
            + ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()));
  }

  /**
   * How long a task works: all of {@code workMillis} in the fixture's run (system property {@value
   * #HOLD} set), where the long ones are still running at the kill; at most 20 ms after it.
   */
  static void work(int workMillis) throws InterruptedException {
    Thread.sleep(Boolean.getBoolean(HOLD) ? workMillis : Math.min(workMillis, 20));
  }

  /** Set in the fixture's run only. */
  public static final String HOLD = "it.upgrade.hold";

  static void end(TaskContext context, String id) {
    Ledger.write("end " + context.taskId() + " " + id);
  }

  /** One start per key every 2 s: a batch of one key parks all but its first. */
  public record Paced(String id, String key) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT2S")
  public static class PacedHandler implements Handler<Paced> {
    @Override
    public void handle(Paced task, TaskContext context) {
      start(context, task.id(), task.key());
    }
  }

  /** A step of an order: one at a time per order. */
  public record Step(String id, String orderId, int workMillis) implements Task {}

  @TaskHandler
  @Mutex("upgrade-order-{orderId}")
  public static class StepHandler implements Handler<Step> {
    @Override
    public void handle(Step task, TaskContext context) throws InterruptedException {
      start(context, task.id(), null);
      work(task.workMillis());
      end(context, task.id());
    }
  }

  /** Behind the semaphore {@code upgrade-slots}, which the test defines through the REST API. */
  public record Slot(String id, int workMillis) implements Task {}

  @TaskHandler
  @Semaphore("upgrade-slots")
  public static class SlotHandler implements Handler<Slot> {
    @Override
    public void handle(Slot task, TaskContext context) throws InterruptedException {
      start(context, task.id(), null);
      work(task.workMillis());
      end(context, task.id());
    }
  }

  /** Plain work, neither limited nor throttled. */
  public record Plain(String id, int workMillis) implements Task {}

  @TaskHandler
  public static class PlainHandler implements Handler<Plain> {
    @Override
    public void handle(Plain task, TaskContext context) throws InterruptedException {
      start(context, task.id(), null);
      work(task.workMillis());
      end(context, task.id());
    }
  }

  /** A recurring task's occurrence. */
  public record Tick(String id) implements Task {}

  @TaskHandler
  public static class TickHandler implements Handler<Tick> {
    @Override
    public void handle(Tick task, TaskContext context) {
      start(context, task.id(), null);
    }
  }

  /** {@code POST /api/upgrade/recurring?id=&every=}: a {@link Tick} at every interval. */
  @Path("upgrade")
  public static class RecurringResource {
    @Inject TaskDispatcher dispatcher;

    @POST
    @Path("recurring")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> recurring(
        @QueryParam("id") String id, @QueryParam("every") String every) {
      return Map.of(
          "id",
          dispatcher
              .schedule(
                  new Tick(id), Recurrence.every(Duration.parse(every)), DispatchOptions.now())
              .taskId()
              .toString());
    }
  }
}
