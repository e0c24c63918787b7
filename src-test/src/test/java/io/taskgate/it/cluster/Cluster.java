package io.taskgate.it.cluster;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.TaskReceipt;
import io.taskgate.api.UpstreamRateLimitException;
import io.taskgate.it.ledger.Ledger;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What the cluster test runs on both instances. */
public final class Cluster {
  private Cluster() {}

  /** A task that works {@code workMillis}, rate-limited per {@code key}. */
  public record Job(String id, String key, int workMillis) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  /**
   * 10 a second per key, one at a time: starts of a key at least 100 ms apart. Each start goes to
   * the ledger as {@code start <task id> <key> <µs> <instance> <attempt> <slot µs or ->}.
   */
  @TaskHandler
  @RateLimit(permits = 10, period = "PT1S", burst = 1)
  public static class JobHandler implements Handler<Job> {
    @Override
    public void handle(Job task, TaskContext context) throws Exception {
      logStart(task.key(), context);
      Thread.sleep(task.workMillis());
    }
  }

  /** Writes a start of {@code key} to the ledger. */
  static void logStart(String key, TaskContext context) {
    Instant now = Instant.now();
    Ledger.write(
        "start "
            + context.taskId()
            + " "
            + key
            + " "
            + ChronoUnit.MICROS.between(Instant.EPOCH, now)
            + " "
            + System.getProperty("taskgate.cluster.instance-id")
            + " "
            + context.attempt()
            + " "
            + context
                .throttledUntil()
                .map(slot -> Long.toString(ChronoUnit.MICROS.between(Instant.EPOCH, slot)))
                .orElse("-"));
  }

  /** A call of a slow upstream, rate-limited per {@code key}. */
  public record Quarterly(String id, String key) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  /**
   * 15 a minute per key, one at a time: a start every 4 s. Each start goes to the ledger as the
   * jobs' do.
   */
  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M", burst = 1)
  public static class QuarterlyHandler implements Handler<Quarterly> {
    @Override
    public void handle(Quarterly task, TaskContext context) {
      logStart(task.key(), context);
    }
  }

  /** A call of an upstream whose quota refills slowly, rate-limited per {@code key}. */
  public record Hourly(String id, String key) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  /**
   * 3 a minute per key, 3 back to back: its burst spans a minute, longer than a restart of the
   * cluster takes. Each start goes to the ledger as the jobs' do.
   */
  @TaskHandler
  @RateLimit(permits = 3, period = "PT1M", burst = 3)
  public static class HourlyHandler implements Handler<Hourly> {
    @Override
    public void handle(Hourly task, TaskContext context) {
      logStart(task.key(), context);
    }
  }

  /** A call of an upstream API, rate-limited per {@code key}. */
  public record UpstreamCall(String id, String key) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  /**
   * 5 a second per key. The key's first call to start, on whichever instance, is pushed back by the
   * upstream for 3 s; each start goes to the ledger as the jobs' do.
   */
  @TaskHandler
  @RateLimit(permits = 5, period = "PT1S", burst = 1)
  public static class UpstreamCallHandler implements Handler<UpstreamCall> {
    @Override
    public void handle(UpstreamCall task, TaskContext context) {
      logStart(task.key(), context);
      if (Ledger.first("upstream-" + task.key())) {
        throw new UpstreamRateLimitException(Duration.ofSeconds(3), "429 Too Many Requests");
      }
    }
  }

  /**
   * {@code POST /api/cluster-test/batch?n=&keys=&keyPrefix=&prefix=&work=}: one {@code dispatchAll}
   * of n jobs spread over {@code keys} keys (upstream calls for {@code work} -1).
   */
  @Path("cluster-test")
  public static class BatchResource {
    @Inject TaskDispatcher dispatcher;

    @POST
    @Path("batch")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, List<String>> batch(
        @QueryParam("n") int n,
        @QueryParam("keys") int keys,
        @QueryParam("keyPrefix") String keyPrefix,
        @QueryParam("prefix") String prefix,
        @QueryParam("work") int work) {
      List<Task> jobs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String key = keyPrefix + "-" + (i % keys);
        jobs.add(
            work < 0
                ? new UpstreamCall(prefix + "-" + i, key)
                : new Job(prefix + "-" + i, key, work));
      }
      return dispatched(dispatcher, jobs);
    }
  }

  /**
   * {@code POST /api/cluster-test/quarterly?n=&key=&prefix=&kind=}: one {@code dispatchAll} of n
   * calls, {@link Quarterly} ones, or {@link Hourly} ones for {@code kind=hourly}.
   */
  @Path("cluster-test/quarterly")
  public static class QuarterlyResource {
    @Inject TaskDispatcher dispatcher;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, List<String>> dispatch(
        @QueryParam("n") int n,
        @QueryParam("key") String key,
        @QueryParam("prefix") String prefix,
        @QueryParam("kind") String kind) {
      List<Task> calls = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        calls.add(
            "hourly".equals(kind)
                ? new Hourly(prefix + "-" + i, key)
                : new Quarterly(prefix + "-" + i, key));
      }
      return dispatched(dispatcher, calls);
    }
  }

  /**
   * {@code GET /api/cluster-test/limited/{tenant}}: five calls a minute per tenant for the whole
   * cluster (the test starts both instances with {@code
   * taskgate.limiter.it-cluster.scope=cluster}).
   */
  @Path("cluster-test/limited")
  @RequestScoped
  public static class LimitedResource {
    @GET
    @Path("{tenant}")
    @Produces(MediaType.APPLICATION_JSON)
    @RateLimited(value = "it-cluster", permits = 5, period = "PT1M", burst = 5)
    public Map<String, String> call(@RateLimitKey @PathParam("tenant") String tenant) {
      return Map.of("tenant", tenant);
    }
  }

  /** One {@code dispatchAll} of {@code tasks}: the ids as the test endpoints answer them. */
  static Map<String, List<String>> dispatched(TaskDispatcher dispatcher, List<Task> tasks) {
    List<String> ids = new ArrayList<>();
    for (TaskReceipt receipt : dispatcher.dispatchAll(tasks, DispatchOptions.now())) {
      ids.add(receipt.taskId().toString());
    }
    return Map.of("ids", ids);
  }
}
