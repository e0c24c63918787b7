package io.taskgate.it.crash;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.SlidingWindow;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.TaskReceipt;
import io.taskgate.it.ledger.Ledger;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** What the crash test runs, dispatches and watches. */
public final class Crash {
  private Crash() {}

  /**
   * A task that works {@code workMillis}; rate-limited per {@code key} (none when null). A handler
   * that must not be counted twice writes its start to the ledger before anything else.
   */
  public record Probe(String id, String key, int workMillis) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  /** 20 a second per key, 5 back to back: a stream over a few hundred keys parks many. */
  @TaskHandler
  @RateLimit(permits = 20, period = "PT1S", burst = 5)
  public static class ProbeHandler implements Handler<Probe> {
    /** Writes {@code start <task id> <id> <attempt> <key or -> <µs>} before anything else. */
    @Override
    public void handle(Probe task, TaskContext context) throws Exception {
      Instant now = Instant.now();
      Ledger.write(
          "start "
              + context.taskId()
              + " "
              + task.id()
              + " "
              + context.attempt()
              + " "
              + (task.key() == null ? "-" : task.key())
              + " "
              + ChronoUnit.MICROS.between(Instant.EPOCH, now));
      Thread.sleep(task.workMillis());
    }
  }

  /** A step of an order: one at a time per order; writes its start and its end. */
  public record OrderProbe(String id, String orderId, int workMillis) implements Task {}

  @TaskHandler
  @Mutex("crash-order-{orderId}")
  public static class OrderProbeHandler implements Handler<OrderProbe> {
    @Override
    public void handle(OrderProbe task, TaskContext context) throws Exception {
      Ledger.write("start " + context.taskId() + " " + task.id() + " " + context.attempt());
      Thread.sleep(task.workMillis());
      Ledger.write("end " + context.taskId() + " " + task.id());
    }
  }

  /** A call behind the sliding window {@code crash-window}, which the test defines. */
  public record WindowProbe(String id) implements Task {}

  @TaskHandler
  @SlidingWindow("crash-window")
  public static class WindowProbeHandler implements Handler<WindowProbe> {
    @Override
    public void handle(WindowProbe task, TaskContext context) {
      Ledger.write("start " + context.taskId() + " " + task.id() + " " + context.attempt());
    }
  }

  /** Records when the application's own initialisation ran (default observer priority). */
  @ApplicationScoped
  public static class Startup {
    void initialized(@Observes @Initialized(ApplicationScoped.class) Object event) {
      Ledger.write("initialized " + event.getClass().getName());
    }
  }

  /** {@code POST /api/crash/batch?n=&prefix=&delay=}: one {@code dispatchAll} of n probes. */
  @Path("crash")
  public static class BatchResource {
    @Inject TaskDispatcher dispatcher;

    @POST
    @Path("batch")
    @Produces(MediaType.APPLICATION_JSON)
    public java.util.Map<String, List<String>> batch(
        @QueryParam("n") int n,
        @QueryParam("prefix") String prefix,
        @QueryParam("delay") String delay) {
      List<Probe> probes = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        probes.add(new Probe(prefix + "-" + i, null, 1));
      }
      DispatchOptions options = DispatchOptions.now();
      if (delay != null) {
        options = options.after(Duration.parse(delay));
      }
      List<String> ids = new ArrayList<>();
      for (TaskReceipt receipt : dispatcher.dispatchAll(probes, options)) {
        ids.add(receipt.taskId().toString());
      }
      return java.util.Map.of("ids", ids);
    }
  }
}
