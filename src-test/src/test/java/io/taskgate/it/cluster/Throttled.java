package io.taskgate.it.cluster;

import io.taskgate.api.Concurrency;
import io.taskgate.api.FixedWindow;
import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The job throttlers the cluster test runs on both instances, one budget for both. */
public final class Throttled {
  private Throttled() {}

  /** A task that works {@code workMillis} under the throttle of {@code resource}. */
  public interface Held extends Task {
    String resource();

    int workMillis();
  }

  /** A step of order {@code orderId}: one at a time per order, across the cluster. */
  public record OrderStep(String id, long orderId, int workMillis) implements Held {
    @Override
    public String resource() {
      return "order-" + orderId;
    }
  }

  /** A send: at most {@code cluster-news}'s max count at once, across the cluster. */
  public record NewsSend(String id, int workMillis) implements Held {
    @Override
    public String resource() {
      return "news";
    }
  }

  /** A call of the upstream API: at most {@code cluster-api}'s limit per window. */
  public record ApiCall(String id, int workMillis) implements Held {
    @Override
    public String resource() {
      return "api";
    }
  }

  /**
   * An export of tenant {@code tenant}'s data: at most two of a tenant at once, across the cluster.
   */
  public record Export(String id, long tenant, int workMillis) implements Held {
    @Override
    public String resource() {
      return "tenant-" + tenant;
    }
  }

  /**
   * Writes each run to the ledger as {@code held <task id> <resource> <start µs> <end µs>
   * <instance>}.
   */
  abstract static class Logged<T extends Held> implements Handler<T> {
    @Override
    public void handle(T task, TaskContext context) throws Exception {
      Instant start = Instant.now();
      Thread.sleep(task.workMillis());
      Ledger.write(
          "held "
              + context.taskId()
              + " "
              + task.resource()
              + " "
              + ChronoUnit.MICROS.between(Instant.EPOCH, start)
              + " "
              + ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now())
              + " "
              + System.getProperty("taskgate.cluster.instance-id"));
    }
  }

  @TaskHandler
  @Mutex("cluster-order-{orderId}")
  public static class OrderStepHandler extends Logged<OrderStep> {}

  @TaskHandler
  @Semaphore("cluster-news")
  public static class NewsSendHandler extends Logged<NewsSend> {}

  @TaskHandler
  @FixedWindow("cluster-api")
  public static class ApiCallHandler extends Logged<ApiCall> {}

  @TaskHandler
  @Concurrency(limit = 2, key = "{tenant}")
  public static class ExportHandler extends Logged<Export> {}

  /**
   * {@code POST /api/cluster-test/throttled?kind=order|news|api|export&n=&orders=&prefix=&work=}:
   * one {@code dispatchAll} of n tasks ({@code orders} orders for steps, tenants for exports).
   */
  @Path("cluster-test/throttled")
  public static class ThrottledResource {
    @Inject TaskDispatcher dispatcher;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, List<String>> dispatch(
        @QueryParam("kind") String kind,
        @QueryParam("n") int n,
        @QueryParam("orders") int orders,
        @QueryParam("prefix") String prefix,
        @QueryParam("work") int work) {
      List<Task> tasks = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String id = prefix + "-" + i;
        tasks.add(
            switch (kind) {
              case "order" -> new OrderStep(id, i % orders, work);
              case "news" -> new NewsSend(id, work);
              case "export" -> new Export(id, i % orders, work);
              default -> new ApiCall(id, work);
            });
      }
      return Cluster.dispatched(dispatcher, tasks);
    }
  }
}
