package io.taskgate.it.engine;

import io.taskgate.api.Concurrency;
import io.taskgate.api.DynamicWindow;
import io.taskgate.api.FixedWindow;
import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Semaphore;
import io.taskgate.api.SlidingWindow;
import io.taskgate.api.Strictness;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.Throttling;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.api.UpstreamRateLimitException;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test tasks behind the job throttlers, on the six-worker "throttled" queue. Each handler records
 * when it ran (wall clock, as the windows count) and how many of its group ran at once.
 */
public final class ThrottledTasks {
  private ThrottledTasks() {}

  /** One run: which task, its group, start and end. */
  public record Run(String id, String group, Instant start, Instant end) {}

  /** Every run, in the order they ended. */
  public static final List<Run> RUNS = new CopyOnWriteArrayList<>();

  /** How many of each group run now, and the most that ever ran at once. */
  public static final Map<String, AtomicInteger> RUNNING = new ConcurrentHashMap<>();

  public static final Map<String, AtomicInteger> MOST = new ConcurrentHashMap<>();

  /** What each dropped task's onError got, by task id. */
  public static final Map<String, Throwable> ERRORS = new ConcurrentHashMap<>();

  /** The runs of {@code group}, by start. */
  public static List<Run> runs(String group) {
    return RUNS.stream()
        .filter(r -> r.group().equals(group))
        .sorted(java.util.Comparator.comparing(Run::start))
        .toList();
  }

  /** The most tasks of {@code group} that ran at once. */
  public static int most(String group) {
    AtomicInteger most = MOST.get(group);
    return most == null ? 0 : most.get();
  }

  /** A step of an order: one at a time per order. */
  public record OrderStep(String orderId, String id, long millis) implements Task {}

  /** A newsletter send: at most the semaphore's count at a time, across groups. */
  public record Newsletter(String group, String id, long millis) implements Task {}

  /** A call to a "github" API: 5 per 2 s. */
  public record GithubCall(String group, String id) implements Task {}

  /** A call to a "dropbox" API: a sliding window. */
  public record DropboxCall(String group, String id) implements Task {}

  /** A send that is dropped when its semaphore is taken. */
  public record DroppedSend(String group, String id, long millis) implements Task {}

  /** A mailing of a tenant: a window per tenant within a shared capacity. */
  public record TenantMail(String group, String tenant, String id) implements Task {}

  @TaskHandler(queue = "throttled")
  @DynamicWindow(value = "it-tenants", window = "tenant-{tenant}")
  public static class TenantMailHandler extends Timed<TenantMail> {
    @Override
    String id(TenantMail task) {
      return task.id();
    }

    @Override
    String group(TenantMail task) {
      return task.group() + "/" + task.tenant();
    }
  }

  /** A call of a rate-limited upstream that answers "slow down for 2 s" to a key's first call. */
  public record UpstreamCall(String key, String id) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  /** When each upstream call started, in order (a pushed-back one twice). */
  public static final List<Run> UPSTREAM_STARTS = new CopyOnWriteArrayList<>();

  @TaskHandler(queue = "throttled")
  @RateLimit(permits = 5, period = "PT1S", burst = 1)
  public static class UpstreamCallHandler implements Handler<UpstreamCall> {
    private static final Map<String, Boolean> PUSHED = new ConcurrentHashMap<>();

    @Override
    public void handle(UpstreamCall task, TaskContext context) {
      Instant start = Instant.now();
      UPSTREAM_STARTS.add(new Run(task.id(), task.key(), start, start));
      if (PUSHED.putIfAbsent(task.key(), true) == null) { // the key's first call to start
        throw new UpstreamRateLimitException(Duration.ofSeconds(2), "429 Too Many Requests");
      }
    }
  }

  /**
   * A call to a partner's API for a tenant: at most 1 per 2 s per tenant with a burst of 3, and 2
   * starts in any 2 s across tenants (sliding window {@code it-partner}, defined by the test).
   */
  public record PartnerCall(String key, String id) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  /**
   * The same for the steps of orders, one at a time per order (window {@code it-partner-orders}).
   */
  public record PartnerStep(String key, String orderId, String id) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  /**
   * When each partner call and step started, its group its key, by the engine's wall clock (the one
   * its windows count with).
   */
  public static final List<Run> PARTNER_STARTS = new CopyOnWriteArrayList<>();

  /** The partner starts of {@code key}, by start. */
  public static List<Run> partnerStarts(String key) {
    return PARTNER_STARTS.stream()
        .filter(r -> r.group().equals(key))
        .sorted(java.util.Comparator.comparing(Run::start))
        .toList();
  }

  abstract static class PartnerHandler<T extends RateLimitedTask> implements Handler<T> {
    @Inject InstantSource clock;

    abstract String id(T task);

    @Override
    public void handle(T task, TaskContext context) {
      Instant start = clock.instant();
      PARTNER_STARTS.add(new Run(id(task), task.rateLimitKey(), start, start));
    }
  }

  @TaskHandler(queue = "throttled")
  @RateLimit(permits = 1, period = "PT2S", burst = 3)
  @SlidingWindow("it-partner")
  public static class PartnerCallHandler extends PartnerHandler<PartnerCall> {
    @Override
    String id(PartnerCall task) {
      return task.id();
    }
  }

  @TaskHandler(queue = "throttled")
  @RateLimit(permits = 1, period = "PT2S", burst = 3)
  @Mutex("partner-order-{orderId}")
  @SlidingWindow("it-partner-orders")
  public static class PartnerStepHandler extends PartnerHandler<PartnerStep> {
    @Override
    String id(PartnerStep task) {
      return task.id();
    }
  }

  /** A strict step: fails its first attempt, keeps its order's mutex while it waits to retry. */
  public record StrictStep(String orderId, String id, long millis) implements Task {}

  abstract static class Timed<T extends Task> implements Handler<T> {
    abstract String id(T task);

    abstract String group(T task);

    long millis(T task) {
      return 0;
    }

    @Override
    public void handle(T task, TaskContext context) throws Exception {
      String group = group(task);
      int now = RUNNING.computeIfAbsent(group, g -> new AtomicInteger()).incrementAndGet();
      MOST.computeIfAbsent(group, g -> new AtomicInteger()).accumulateAndGet(now, Math::max);
      Instant start = Instant.now();
      try {
        if (millis(task) > 0) {
          Thread.sleep(millis(task)); // the work itself: what the throttle keeps apart
        }
        work(task, context);
      } finally {
        RUNNING.get(group).decrementAndGet();
        RUNS.add(new Run(id(task), group, start, Instant.now()));
      }
    }

    void work(T task, TaskContext context) {}

    @Override
    public void onError(T task, TaskContext context, Throwable error) {
      ERRORS.put(id(task), error);
    }
  }

  /** An export of a tenant's data: at most two of a tenant at once. */
  public record Export(String tenant, String id, long millis) implements Task {}

  @TaskHandler(queue = "throttled")
  @Concurrency(limit = 2, key = "{tenant}")
  public static class ExportHandler extends Timed<Export> {
    @Override
    String id(Export task) {
      return task.id();
    }

    @Override
    String group(Export task) {
      return task.tenant();
    }

    @Override
    long millis(Export task) {
      return task.millis();
    }
  }

  @TaskHandler(queue = "throttled")
  @Mutex("order-{orderId}")
  public static class OrderStepHandler extends Timed<OrderStep> {
    @Override
    String id(OrderStep task) {
      return task.id();
    }

    @Override
    String group(OrderStep task) {
      return "order-" + task.orderId();
    }

    @Override
    long millis(OrderStep task) {
      return task.millis();
    }
  }

  @TaskHandler(queue = "throttled")
  @Semaphore("it-newsletter")
  public static class NewsletterHandler extends Timed<Newsletter> {
    @Override
    String id(Newsletter task) {
      return task.id();
    }

    @Override
    String group(Newsletter task) {
      return task.group();
    }

    @Override
    long millis(Newsletter task) {
      return task.millis();
    }
  }

  @TaskHandler(queue = "throttled")
  @FixedWindow("it-github")
  public static class GithubHandler extends Timed<GithubCall> {
    @Override
    String id(GithubCall task) {
      return task.id();
    }

    @Override
    String group(GithubCall task) {
      return task.group();
    }
  }

  @TaskHandler(queue = "throttled")
  @SlidingWindow("it-dropbox")
  public static class DropboxHandler extends Timed<DropboxCall> {
    @Override
    String id(DropboxCall task) {
      return task.id();
    }

    @Override
    String group(DropboxCall task) {
      return task.group();
    }
  }

  @TaskHandler(queue = "throttled")
  @Semaphore("it-drop")
  @Throttling(action = ThrottlingAction.DROP)
  public static class DroppedSendHandler extends Timed<DroppedSend> {
    @Override
    String id(DroppedSend task) {
      return task.id();
    }

    @Override
    String group(DroppedSend task) {
      return task.group();
    }

    @Override
    long millis(DroppedSend task) {
      return task.millis();
    }
  }

  @TaskHandler(queue = "throttled", maxAttempts = 2, retryDelay = "PT0.3S")
  @Mutex("strict-{orderId}")
  @Throttling(strictness = Strictness.STRICT)
  public static class StrictStepHandler extends Timed<StrictStep> {
    private static final Map<String, Boolean> FAILED_ONCE = new ConcurrentHashMap<>();

    @Override
    String id(StrictStep task) {
      return task.id();
    }

    @Override
    String group(StrictStep task) {
      return "strict-" + task.orderId();
    }

    @Override
    long millis(StrictStep task) {
      return task.millis();
    }

    @Override
    void work(StrictStep task, TaskContext context) {
      if (FAILED_ONCE.putIfAbsent(task.id(), true) == null) {
        throw new IllegalStateException("first attempt of " + task.id() + " fails");
      }
    }
  }
}
