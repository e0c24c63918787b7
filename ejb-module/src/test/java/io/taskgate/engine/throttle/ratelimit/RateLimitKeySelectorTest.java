package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.core.ratelimit.RateLimitKeys;
import io.taskgate.engine.LogCapture;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.TaskgateExtension;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which key a task gets, and when it gets none. */
class RateLimitKeySelectorTest {

  /** Its key is its tenant; "boom" throws. */
  record Sync(String tenant) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      if ("boom".equals(tenant)) {
        throw new IllegalStateException("no tenant");
      }
      return tenant;
    }
  }

  record Report(String account) implements Task {}

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M")
  static class SyncHandler implements Handler<Sync> {
    @Override
    public void handle(Sync task, TaskContext context) {}
  }

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M")
  static class ReportHandler implements Handler<Report> {
    @Override
    public void handle(Report task, TaskContext context) {}

    @Override
    public String rateLimitKey(Report task) {
      if ("boom".equals(task.account())) {
        throw new IllegalArgumentException("bad account");
      }
      return task.account() == null ? null : "account-" + task.account();
    }
  }

  /** The handler's key replaces the task's. */
  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M")
  static class RegionSyncHandler extends SyncHandler {
    @Override
    public String rateLimitKey(Sync task) {
      return "region-eu";
    }
  }

  @TaskHandler
  static class UnlimitedSyncHandler implements Handler<Sync> {
    @Override
    public void handle(Sync task, TaskContext context) {}
  }

  final AtomicLong nanos = new AtomicLong();
  final AtomicInteger handlersCreated = new AtomicInteger();
  RateLimitKeySelector selector =
      new RateLimitKeySelector(
          GateSettings.of(GateSettings.Values.defaults(1000)), nanos::get, null);

  Optional<String> keyOf(Class<? extends Handler<?>> handlerClass, Task task) {
    HandlerInfo handler =
        TaskgateExtension.describe(handlerClass, handlerClass.getAnnotation(TaskHandler.class));
    Supplier<Handler<?>> instances =
        () -> {
          handlersCreated.incrementAndGet();
          try {
            return handlerClass.getDeclaredConstructor().newInstance();
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        };
    return selector.keyOf(handler, task, instances);
  }

  @ParameterizedTest
  @CsvSource(
      value = {"tenant-1, tenant-1", "'', NONE", "NULL, NONE", "' ', ' '"},
      nullValues = "NULL")
  void theTasksKeyNullOrEmptyMeansUngated(String key, String expected) {
    assertThat(keyOf(SyncHandler.class, new Sync(key)))
        .isEqualTo("NONE".equals(expected) ? Optional.empty() : Optional.of(expected));
    assertThat(handlersCreated).as("a task's own key needs no handler").hasValue(0);
  }

  @Test
  void theHandlersKeyIsAskedOfAHandlerInstance() {
    assertThat(keyOf(ReportHandler.class, new Report("42"))).contains("account-42");
    assertThat(keyOf(ReportHandler.class, new Report(null))).isEmpty();
    assertThat(handlersCreated).hasValue(2);
  }

  @Test
  void theHandlersKeyWinsOverTheTasks() {
    assertThat(keyOf(RegionSyncHandler.class, new Sync("tenant-1"))).contains("region-eu");
  }

  @Test
  void aTypeWithoutAGateHasNoKey() {
    assertThat(keyOf(UnlimitedSyncHandler.class, new Sync("tenant-1"))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"256, false", "257, true", "1000, true"})
  void keysLongerThanTheMaximumAreHashed(int length, boolean hashed) {
    String key = "k".repeat(length);

    String used = keyOf(SyncHandler.class, new Sync(key)).orElseThrow();

    assertThat(used).isEqualTo(hashed ? RateLimitKeys.normalize(key, 256) : key);
    assertThat(used.startsWith("sha256:")).isEqualTo(hashed);
  }

  @Test
  void theMaximumKeyLengthComesFromTheSettings() {
    selector =
        new RateLimitKeySelector(
            GateSettings.of(new GateSettings.Values(10, 10, 5, true)), nanos::get, null);

    assertThat(keyOf(SyncHandler.class, new Sync("12345"))).contains("12345");
    assertThat(keyOf(SyncHandler.class, new Sync("123456")))
        .contains(RateLimitKeys.normalize("123456", 5));
  }

  @Test
  void aThrowingKeyMeansUngatedWithOneWarningPerTypeAndMinute() {
    try (LogCapture log = new LogCapture(RateLimitKeySelector.class, Level.WARNING)) {
      assertThat(keyOf(SyncHandler.class, new Sync("boom"))).isEmpty();
      assertThat(keyOf(SyncHandler.class, new Sync("boom"))).isEmpty();
      assertThat(keyOf(ReportHandler.class, new Report("boom"))).isEmpty();
      nanos.addAndGet(Duration.ofSeconds(59).toNanos());
      assertThat(keyOf(SyncHandler.class, new Sync("boom"))).isEmpty();
      nanos.addAndGet(Duration.ofSeconds(1).toNanos());
      assertThat(keyOf(SyncHandler.class, new Sync("boom"))).isEmpty();

      assertThat(log.messages(Level.WARNING))
          .containsExactly(
              "Taskgate could not read the rate-limit key of a task of type "
                  + Sync.class.getName()
                  + ": "
                  + Sync.class.getName()
                  + ".rateLimitKey() threw java.lang.IllegalStateException: no tenant; the task"
                  + " runs unthrottled",
              "Taskgate could not read the rate-limit key of a task of type "
                  + Report.class.getName()
                  + ": "
                  + ReportHandler.class.getName()
                  + ".rateLimitKey(task) threw java.lang.IllegalArgumentException: bad account;"
                  + " the task runs unthrottled",
              "Taskgate could not read the rate-limit key of a task of type "
                  + Sync.class.getName()
                  + ": "
                  + Sync.class.getName()
                  + ".rateLimitKey() threw java.lang.IllegalStateException: no tenant; the task"
                  + " runs unthrottled (2 more like this since the last one logged)");
    }
  }

  @Test
  void aHandlerThatCannotBeCreatedMeansUngated() {
    HandlerInfo handler =
        TaskgateExtension.describe(
            ReportHandler.class, ReportHandler.class.getAnnotation(TaskHandler.class));
    try (LogCapture log = new LogCapture(RateLimitKeySelector.class, Level.WARNING)) {
      assertThat(
              selector.keyOf(
                  handler,
                  new Report("42"),
                  () -> {
                    throw new IllegalStateException("cannot create");
                  }))
          .isEmpty();
      assertThat(log.messages(Level.WARNING)).hasSize(1);
    }
  }
}
