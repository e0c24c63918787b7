package io.taskgate.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Backoff;
import io.taskgate.api.DispatchOptions;
import io.taskgate.api.FixedWindow;
import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Recurrence;
import io.taskgate.api.Strictness;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.Throttling;
import io.taskgate.api.UnknownThrottlerException;
import io.taskgate.api.UpstreamRateLimitException;
import io.taskgate.api.WindowOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The standalone Taskgate as a user's test drives it: paced keys, retries, recurrences, push-back
 * and rejections at the times the server's rules give, and the handlers it refuses.
 */
class ManualTaskgateTest {
  private static final Instant T0 = ManualTaskgate.DEFAULT_START;

  /** A task of a tenant. */
  public record Sync(String tenant, int n) implements Task, RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return tenant;
    }
  }

  /** 2 a second per tenant, evenly spaced; three attempts, 10 s apart. */
  @TaskHandler(maxAttempts = 3, backoff = Backoff.FIXED, retryDelay = "PT10S", jitter = 0)
  @RateLimit(permits = 2, period = "PT1S", burst = 1)
  public static class SyncHandler implements Handler<Sync> {
    final List<String> failFirst = new ArrayList<>();
    final List<String> errors = new ArrayList<>();

    @Override
    public void handle(Sync task, TaskContext context) {
      if (failFirst.contains(task.tenant() + task.n()) && context.attempt() == 1) {
        throw new IllegalStateException("upstream 500");
      }
    }

    @Override
    public void onError(Sync task, TaskContext context, Throwable error) {
      errors.add(error.getClass().getSimpleName());
    }
  }

  @Test
  void aTenantsTasksAreSpacedByItsRateWhileAnotherTenantRunsAtOnce() {
    ManualTaskgate taskgate = ManualTaskgate.create().register(new SyncHandler());
    for (int n = 0; n < 3; n++) {
      taskgate.dispatch(new Sync("acme", n));
    }
    UUID globex = taskgate.dispatch(new Sync("globex", 0));

    taskgate.advance(Duration.ofMillis(999));

    assertThat(taskgate.runs())
        .extracting(r -> ((Sync) r.task()).tenant() + ((Sync) r.task()).n(), Run::startedAt)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("acme0", T0),
            org.assertj.core.groups.Tuple.tuple("globex0", T0),
            org.assertj.core.groups.Tuple.tuple("acme1", T0.plusMillis(500)));
    assertThat(taskgate.runsOf(globex)).extracting(Run::startedAt).containsExactly(T0);
    assertThat(taskgate.runs().get(2).throttledUntil()).isEqualTo(T0.plusMillis(500));
    taskgate.advance(Duration.ofMillis(1));
    assertThat(taskgate.runs()).extracting(Run::startedAt).last().isEqualTo(T0.plusSeconds(1));
  }

  /** A mailing of {@code messages} messages: that many units of its tenant's budget. */
  public record Mailing(String tenant, int messages) implements Task, RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return tenant;
    }

    @Override
    public int rateLimitCost() {
      return messages;
    }
  }

  /** 10 messages a second per tenant, 5 back to back. */
  @TaskHandler
  @RateLimit(permits = 10, period = "PT1S", burst = 5)
  public static class MailingHandler implements Handler<Mailing> {
    @Override
    public void handle(Mailing task, TaskContext context) {}
  }

  @Test
  void aTaskOfSeveralUnitsWaitsForAllOfThemAndOneAboveTheBurstIsRefused() {
    ManualTaskgate taskgate = ManualTaskgate.create().register(new MailingHandler());
    UUID five = taskgate.dispatch(new Mailing("acme", 5));
    UUID three = taskgate.dispatch(new Mailing("acme", 3));
    UUID one = taskgate.dispatch(new Mailing("acme", 1));

    taskgate.runUntilIdle(Duration.ofMinutes(1));

    assertThat(taskgate.runsOf(five)).extracting(Run::startedAt).containsExactly(T0);
    assertThat(taskgate.runsOf(three))
        .extracting(Run::startedAt)
        .containsExactly(T0.plusMillis(300));
    assertThat(taskgate.runsOf(one)).extracting(Run::startedAt).containsExactly(T0.plusMillis(400));
    assertThatThrownBy(() -> taskgate.dispatch(new Mailing("acme", 6)))
        .isInstanceOf(io.taskgate.api.InvalidTaskException.class)
        .hasMessageContaining("rateLimitCost() must be between 1 and the burst of")
        .hasMessageContaining("MailingHandler's rate limit, 5, was 6");
  }

  @Test
  void aFailedAttemptIsRetriedAfterItsDelayAndTheLastFailureFailsTheTask() {
    SyncHandler handler = new SyncHandler();
    handler.failFirst.add("acme0");
    ManualTaskgate taskgate = ManualTaskgate.create().register(handler);
    UUID id = taskgate.dispatch(new Sync("acme", 0));

    taskgate.advance(Duration.ofSeconds(9));
    assertThat(taskgate.status(id)).isEqualTo(TaskStatus.QUEUED);
    taskgate.advance(Duration.ofSeconds(1));

    assertThat(taskgate.runsOf(id))
        .extracting(Run::attempt, Run::startedAt, Run::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, T0, Run.Outcome.RETRY),
            org.assertj.core.groups.Tuple.tuple(2, T0.plusSeconds(10), Run.Outcome.COMPLETED));
    assertThat(taskgate.status(id)).isEqualTo(TaskStatus.COMPLETED);
  }

  /** Always fails. */
  public record Doomed(String tenant) implements Task {}

  @TaskHandler(maxAttempts = 2, backoff = Backoff.EXPONENTIAL, retryDelay = "PT1M", jitter = 0)
  public static class DoomedHandler implements Handler<Doomed> {
    Throwable error;

    @Override
    public void handle(Doomed task, TaskContext context) {
      throw new IllegalArgumentException("bad data");
    }

    @Override
    public void onError(Doomed task, TaskContext context, Throwable error) {
      this.error = error;
    }
  }

  @Test
  void aTaskWithoutAttemptsLeftFailsAndItsHandlerHearsOfIt() {
    DoomedHandler handler = new DoomedHandler();
    ManualTaskgate taskgate = ManualTaskgate.create().register(handler);
    UUID id =
        taskgate.dispatch(new Doomed("acme"), DispatchOptions.now().after(Duration.ofHours(1)));

    taskgate.runUntilIdle(Duration.ofDays(1));

    assertThat(taskgate.runsOf(id))
        .extracting(Run::startedAt, Run::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(3600), Run.Outcome.RETRY),
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(3660), Run.Outcome.FAILED));
    assertThat(taskgate.status(id)).isEqualTo(TaskStatus.FAILED);
    assertThat(handler.error).isInstanceOf(IllegalArgumentException.class);
    assertThat(taskgate.lastError(id)).get().asString().contains("bad data");
    assertThat(taskgate.now()).isEqualTo(T0.plusSeconds(3660));
  }

  /** Calls an upstream that says "slow down" once. */
  public record Call(String api, int n) implements Task, RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return api;
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT1S")
  public static class CallHandler implements Handler<Call> {
    boolean pushedBack;

    @Override
    public void handle(Call task, TaskContext context) {
      if (!pushedBack) {
        pushedBack = true;
        throw new UpstreamRateLimitException(Duration.ofSeconds(30), "429");
      }
    }
  }

  @Test
  void anUpstreamPushBackMovesTheKeysNextStartsAndTheAttemptDoesNotCount() {
    ManualTaskgate taskgate = ManualTaskgate.create().register(new CallHandler());
    UUID first = taskgate.dispatch(new Call("maps", 0));
    UUID second = taskgate.dispatch(new Call("maps", 1));

    taskgate.runUntilIdle(Duration.ofMinutes(5));

    assertThat(taskgate.runsOf(first))
        .extracting(Run::attempt, Run::startedAt, Run::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, T0, Run.Outcome.PUSHED_BACK),
            org.assertj.core.groups.Tuple.tuple(1, T0.plusSeconds(30), Run.Outcome.COMPLETED));
    // nothing of the key starts before the retry-after, and the second keeps its spacing after it
    assertThat(taskgate.runsOf(second))
        .extracting(Run::startedAt)
        .containsExactly(T0.plusSeconds(31));
  }

  /** One per 10 s per key, reserving at most 5 s ahead: a second task at once is rejected. */
  public record Report(String tenant) implements Task, RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return tenant;
    }
  }

  @TaskHandler
  @RateLimit(permits = 1, period = "PT10S", maxReservationHorizon = "PT5S")
  public static class ReportHandler implements Handler<Report> {
    final List<Throwable> errors = new ArrayList<>();

    @Override
    public void handle(Report task, TaskContext context) {}

    @Override
    public void onError(Report task, TaskContext context, Throwable error) {
      errors.add(error);
    }
  }

  @Test
  void aTaskWhoseSlotIsBeyondTheHorizonFailsAndARecurringOneRunsAtItsOccurrences() {
    ReportHandler handler = new ReportHandler();
    ManualTaskgate taskgate = ManualTaskgate.create().register(handler);
    UUID series = taskgate.schedule(new Report("acme"), Recurrence.every(Duration.ofMinutes(1)));
    taskgate.advance(Duration.ofMinutes(2).plusSeconds(30));
    UUID first = taskgate.dispatch(new Report("globex"));
    UUID second = taskgate.dispatch(new Report("globex"));
    taskgate.advance(Duration.ofSeconds(1));

    assertThat(taskgate.runsOf(series))
        .extracting(Run::startedAt, Run::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(T0, Run.Outcome.NEXT_OCCURRENCE),
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(60), Run.Outcome.NEXT_OCCURRENCE),
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(120), Run.Outcome.NEXT_OCCURRENCE));
    assertThat(taskgate.status(first)).isEqualTo(TaskStatus.COMPLETED);
    assertThat(taskgate.status(second)).isEqualTo(TaskStatus.FAILED);
    assertThat(taskgate.runsOf(second)).isEmpty();
    assertThat(handler.errors).singleElement().isInstanceOf(RateLimitRejectedException.class);
  }

  /** An order's shipment: one at a time per order, failing once when told to. */
  public record Ship(long orderId, boolean failOnce) implements Task {}

  /** A strict mutex per order: the permit is kept through retries until the task ends. */
  @TaskHandler(maxAttempts = 2, backoff = Backoff.FIXED, retryDelay = "PT10S", jitter = 0)
  @Mutex("order-{orderId}")
  @Throttling(strictness = Strictness.STRICT)
  public static class ShipHandler implements Handler<Ship> {
    @Override
    public void handle(Ship task, TaskContext context) {
      if (task.failOnce() && context.attempt() == 1) {
        throw new IllegalStateException("carrier down");
      }
    }
  }

  @Test
  void aStrictMutexHoldsAnOrderThroughItsRetryWhileAnotherOrderRuns() {
    ManualTaskgate taskgate = ManualTaskgate.create().register(new ShipHandler());
    UUID first = taskgate.dispatch(new Ship(1, true));
    UUID second = taskgate.dispatch(new Ship(1, false));
    UUID other = taskgate.dispatch(new Ship(2, false));

    taskgate.advance(Duration.ofSeconds(30));

    assertThat(taskgate.runsOf(first))
        .extracting(Run::startedAt, Run::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(T0, Run.Outcome.RETRY),
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(10), Run.Outcome.COMPLETED));
    // waits for the mutex, holding nothing, and starts when the first gives it back
    assertThat(taskgate.runsOf(second))
        .extracting(Run::startedAt)
        .containsExactly(T0.plusSeconds(10));
    assertThat(taskgate.runsOf(other)).extracting(Run::startedAt).containsExactly(T0);
  }

  /** An export, under a fixed window of two a minute. */
  public record Export(int n) implements Task {}

  @TaskHandler
  @FixedWindow("exports")
  public static class ExportHandler implements Handler<Export> {
    @Override
    public void handle(Export task, TaskContext context) {}
  }

  /** A newsletter, under a semaphore. */
  public record Newsletter(int n) implements Task {}

  @TaskHandler
  @io.taskgate.api.Semaphore("newsletter")
  public static class NewsletterHandler implements Handler<Newsletter> {
    final List<Throwable> errors = new ArrayList<>();

    @Override
    public void handle(Newsletter task, TaskContext context) {}

    @Override
    public void onError(Newsletter task, TaskContext context, Throwable error) {
      errors.add(error);
    }
  }

  @Test
  void aFixedWindowLetsItsLimitStartPerWindowAndAnUndefinedSemaphoreFailsItsTask() {
    NewsletterHandler newsletters = new NewsletterHandler();
    ManualTaskgate taskgate =
        ManualTaskgate.create()
            .register(new ExportHandler(), newsletters)
            .addOrUpdateWindow(
                ThrottlerKind.FIXED_WINDOW,
                "exports",
                WindowOptions.fixed(2, Duration.ofMinutes(1)));
    for (int n = 0; n < 3; n++) {
      taskgate.dispatch(new Export(n));
    }
    UUID newsletter = taskgate.dispatch(new Newsletter(1));

    taskgate.advance(Duration.ofMinutes(2));

    assertThat(taskgate.runs())
        .filteredOn(r -> r.task() instanceof Export)
        .extracting(Run::startedAt)
        .containsExactly(T0, T0, T0.plusSeconds(60));
    assertThat(taskgate.status(newsletter)).isEqualTo(TaskStatus.FAILED);
    assertThat(newsletters.errors).singleElement().isInstanceOf(UnknownThrottlerException.class);

    taskgate.addOrUpdateSemaphore("newsletter", 1);
    UUID defined = taskgate.dispatch(new Newsletter(2));
    taskgate.advance(Duration.ofSeconds(1));
    assertThat(taskgate.status(defined)).isEqualTo(TaskStatus.COMPLETED);
  }

  /** No @TaskHandler. */
  public static class Unannotated implements Handler<Export> {
    @Override
    public void handle(Export task, TaskContext context) {}
  }

  @TaskHandler(maxAttempts = 0)
  public static class BadOptions implements Handler<Doomed> {
    @Override
    public void handle(Doomed task, TaskContext context) {}
  }

  @Test
  void whatItCannotRunItRefusesNamingTheHandlerAndWhy() {
    ManualTaskgate taskgate = ManualTaskgate.create();

    assertThatThrownBy(() -> taskgate.register(new Unannotated()))
        .hasMessageContaining(Unannotated.class.getName())
        .hasMessageContaining("@TaskHandler");
    assertThatThrownBy(() -> taskgate.register(new BadOptions()))
        .hasMessageContaining(BadOptions.class.getName())
        .hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> taskgate.dispatch(new Doomed("x")))
        .hasMessageContaining("No handler is registered for task type")
        .hasMessageContaining(Doomed.class.getName());
    assertThatThrownBy(() -> taskgate.advanceTo(T0.minusSeconds(1)))
        .hasMessageContaining("does not go back");
    assertThatThrownBy(() -> taskgate.status(UUID.randomUUID())).hasMessageContaining("no task");
  }

  /** The README's account sync: 15 a minute per account, a burst of 15 by default. */
  public record SyncAccount(String accountId) implements Task, RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return accountId;
    }
  }

  @TaskHandler(maxAttempts = 5, retryDelay = "PT2S", timeout = "PT30S")
  @RateLimit(permits = 15, period = "PT1M")
  public static class SyncAccountHandler implements Handler<SyncAccount> {
    @Override
    public void handle(SyncAccount task, TaskContext ctx) {}
  }

  @Test
  void theReadmesTestHoldsTheSixteenthSyncOfAnAccountWaitsForItsSlot() {
    ManualTaskgate taskgate = ManualTaskgate.create().register(new SyncAccountHandler());
    for (int i = 0; i < 16; i++) {
      taskgate.dispatch(new SyncAccount("a-1"));
    }
    taskgate.advance(Duration.ofSeconds(4));

    assertThat(taskgate.runs()).hasSize(16);
    assertThat(taskgate.runs().subList(0, 15)).extracting(Run::startedAt).containsOnly(T0);
    assertThat(taskgate.runs()).extracting(Run::startedAt).last().isEqualTo(T0.plusSeconds(4));
  }

  @Test
  void aCancelledTaskNeverRunsAndTheClockIsTheTests() {
    ManualTaskgate taskgate = ManualTaskgate.create().register(new SyncHandler());
    UUID later =
        taskgate.dispatch(new Sync("acme", 0), DispatchOptions.now().after(Duration.ofMinutes(1)));

    assertThat(taskgate.cancel(later)).isTrue();
    taskgate.advance(Duration.ofMinutes(2));

    assertThat(taskgate.runs()).isEmpty();
    assertThat(taskgate.status(later)).isEqualTo(TaskStatus.CANCELLED);
    assertThat(taskgate.cancel(later)).isFalse();
    assertThat(taskgate.clock().instant()).isEqualTo(T0.plusSeconds(120));
  }
}
