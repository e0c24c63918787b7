package io.taskgate.it.engine;

import io.taskgate.api.Backoff;
import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;

/** The test tasks and their handlers. */
public final class Tasks {
  private Tasks() {}

  /** Records "handle:&lt;payload&gt;" and succeeds. */
  public record Echo(String id, String payload) implements Task {}

  /** Fails its first {@code failures} attempts, then succeeds. */
  public record Flaky(String id, int failures) implements Task {}

  /** Always fails. */
  public record Doomed(String id) implements Task {}

  /** Sleeps {@code millis}: longer than its handler's 300 ms timeout when large. */
  public record Slow(String id, long millis) implements Task {}

  /** Waits (up to 20 s) until the test opens {@link #GATE}; runs on the one-worker "tiny" queue. */
  public record Blocker(String id) implements Task {}

  /** Opened by a test to let {@link Blocker} tasks finish. */
  public static final java.util.concurrent.CountDownLatch GATE =
      new java.util.concurrent.CountDownLatch(1);

  /** Its handler cannot even be created. */
  public record Unstartable(String id) implements Task {}

  /** Records each run of a recurring series. */
  public record Tick(String id) implements Task {}

  /** JSON-B reads it but cannot write it back: its accessor fails, as a programming error would. */
  public record Unwritable(String id) implements Task {
    @Override
    public String id() {
      throw new IllegalStateException("Unwritable.id() fails on purpose");
    }
  }

  /** A task with constraints: the dispatcher refuses one without an id or with more than 10. */
  public record Checked(@NotBlank String id, @Max(10) int count) implements Task {}

  @TaskHandler
  public static class EchoHandler implements Handler<Echo> {
    @Inject Probe probe;

    @Override
    public void handle(Echo task, TaskContext context) {
      probe.record(task.id(), "handle:" + task.payload());
    }

    @Override
    public void onStarted(Echo task, TaskContext context) {
      probe.record(task.id(), "started");
    }

    @Override
    public void onCompleted(Echo task, TaskContext context) {
      probe.record(task.id(), "completed");
    }
  }

  @TaskHandler(maxAttempts = 3, backoff = Backoff.FIXED, retryDelay = "PT0.1S", jitter = 0)
  public static class FlakyHandler implements Handler<Flaky> {
    @Inject Probe probe;

    @Override
    public void handle(Flaky task, TaskContext context) {
      probe.record(task.id(), "attempt:" + context.attempt());
      if (context.attempt() <= task.failures()) {
        throw new IllegalStateException("flaky failure " + context.attempt());
      }
    }

    @Override
    public void onRetry(Flaky task, TaskContext context, int attempt, Duration delay, Throwable e) {
      probe.record(task.id(), "retry:" + attempt + ":" + delay.toMillis() + ":" + e.getMessage());
    }

    @Override
    public void onCompleted(Flaky task, TaskContext context) {
      probe.record(task.id(), "completed");
    }
  }

  @TaskHandler(maxAttempts = 2, backoff = Backoff.FIXED, retryDelay = "PT0.05S", jitter = 0)
  public static class DoomedHandler implements Handler<Doomed> {
    @Inject Probe probe;

    @Override
    public void handle(Doomed task, TaskContext context) {
      probe.record(task.id(), "attempt:" + context.attempt());
      throw new IllegalArgumentException("doomed " + task.id());
    }

    @Override
    public void onError(Doomed task, TaskContext context, Throwable error) {
      probe.record(task.id(), "error:" + error.getMessage());
    }
  }

  @TaskHandler(timeout = "PT0.3S")
  public static class SlowHandler implements Handler<Slow> {
    @Inject Probe probe;

    @Override
    public void handle(Slow task, TaskContext context) throws InterruptedException {
      probe.record(task.id(), "handle");
      Thread.sleep(task.millis());
      probe.record(task.id(), "woke");
    }

    @Override
    public void onError(Slow task, TaskContext context, Throwable error) {
      probe.record(task.id(), "error:" + error.getClass().getSimpleName());
    }
  }

  @TaskHandler(queue = "tiny")
  public static class BlockerHandler implements Handler<Blocker> {
    @Inject Probe probe;

    @Override
    public void handle(Blocker task, TaskContext context) throws InterruptedException {
      probe.record(task.id(), "handle");
      GATE.await(20, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  @TaskHandler(maxAttempts = 2, backoff = Backoff.FIXED, retryDelay = "PT0.05S", jitter = 0)
  public static class UnstartableHandler implements Handler<Unstartable> {
    @jakarta.annotation.PostConstruct
    void start() {
      throw new IllegalStateException("cannot start");
    }

    @Override
    public void handle(Unstartable task, TaskContext context) {
      throw new AssertionError("never reached");
    }
  }

  @TaskHandler
  public static class TickHandler implements Handler<Tick> {
    @Inject Probe probe;

    @Override
    public void handle(Tick task, TaskContext context) {
      probe.record(task.id(), "tick");
      probe.record(task.id(), "runs-before:" + context.runs());
    }
  }

  @TaskHandler
  public static class CheckedHandler implements Handler<Checked> {
    @Inject Probe probe;

    @Override
    public void handle(Checked task, TaskContext context) {
      probe.record(task.id(), "handle");
    }
  }

  @TaskHandler
  public static class UnwritableHandler implements Handler<Unwritable> {
    @Override
    public void handle(Unwritable task, TaskContext context) {
      throw new AssertionError("never stored, never run");
    }
  }
}
