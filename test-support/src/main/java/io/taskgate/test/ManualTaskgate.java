package io.taskgate.test;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Handler;
import io.taskgate.api.Recurrence;
import io.taskgate.api.Task;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.engine.standalone.StandaloneEngine;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Taskgate in a unit test: the application's handlers, registered as instances the test builds, run
 * in the test's thread when the test moves the clock; no server, no database. A task is dispatched
 * as the server would dispatch it and each attempt runs at the time the server would start it: a
 * rate-limited task when its key's budget allows (with the same limiter as the server), a failed
 * attempt after its retry delay, a recurring task at its occurrences. Every attempt is a {@link
 * Run}.
 *
 * <pre>{@code
 * ManualTaskgate taskgate = ManualTaskgate.at(Instant.parse("2030-01-01T00:00:00Z"));
 * taskgate.register(new SendInvoiceHandler());
 * taskgate.dispatch(new SendInvoice(order, "acme"));
 * taskgate.advance(Duration.ofSeconds(2));
 * assertThat(taskgate.runs()).extracting(Run::startedAt).containsExactly(...);
 * }</pre>
 *
 * <p>What it does not do: store tasks (a task is handed to its handler as the object dispatched,
 * not read back from JSON), queues and parallelism (one attempt at a time: a task that holds a
 * mutex ends before the next starts), timeouts and unique tasks. Not thread-safe: one test, one
 * thread.
 */
public final class ManualTaskgate {
  /** Where {@link #create()} starts the clock. */
  public static final Instant DEFAULT_START = Instant.parse("2030-01-01T00:00:00Z");

  private final StandaloneEngine engine;

  private ManualTaskgate(Instant start) {
    engine = new StandaloneEngine(start);
  }

  /** A Taskgate whose clock reads {@code start}. */
  public static ManualTaskgate at(Instant start) {
    return new ManualTaskgate(start);
  }

  /** A Taskgate whose clock reads {@link #DEFAULT_START}. */
  public static ManualTaskgate create() {
    return new ManualTaskgate(DEFAULT_START);
  }

  /**
   * Runs the tasks of each handler's type (read from its class as a deployment reads it).
   *
   * @throws IllegalArgumentException naming the handler and the option, where a deployment would
   *     fail, and for a second handler of one task type
   */
  public ManualTaskgate register(Handler<?>... handlers) {
    for (Handler<?> handler : handlers) {
      engine.register(handler);
    }
    return this;
  }

  /** Defines semaphore {@code id}, as {@code ThrottlingManager#addOrUpdateSemaphore} does. */
  public ManualTaskgate addOrUpdateSemaphore(String id, int maxCount) {
    engine.addOrUpdateSemaphore(id, maxCount);
    return this;
  }

  /** Defines window {@code id}, as {@code ThrottlingManager#addOrUpdateWindow} does. */
  public ManualTaskgate addOrUpdateWindow(ThrottlerKind kind, String id, WindowOptions options) {
    engine.addOrUpdateWindow(kind, id, options);
    return this;
  }

  /** Dispatches {@code task}, due now; returns its id. */
  public UUID dispatch(Task task) {
    return engine.dispatch(task, DispatchOptions.now());
  }

  /** Dispatches {@code task} with {@code options} (a delay, an instant); returns its id. */
  public UUID dispatch(Task task, DispatchOptions options) {
    return engine.dispatch(task, options);
  }

  /** Schedules recurring {@code task}; returns its id. */
  public UUID schedule(Task task, Recurrence recurrence) {
    return engine.schedule(task, recurrence);
  }

  /** Cancels a task that has not started; whether it was queued. */
  public boolean cancel(UUID taskId) {
    return engine.cancel(taskId);
  }

  /** The clock's time. */
  public Instant now() {
    return engine.now();
  }

  /** The clock, for handlers and code under test that read the time. */
  public InstantSource clock() {
    return engine::now;
  }

  /** Moves the clock {@code by} on, running every attempt due meanwhile, in time order. */
  public ManualTaskgate advance(Duration by) {
    engine.advanceTo(engine.now().plus(by));
    return this;
  }

  /** Moves the clock to {@code to}, running every attempt due meanwhile, in time order. */
  public ManualTaskgate advanceTo(Instant to) {
    engine.advanceTo(to);
    return this;
  }

  /**
   * Moves the clock from one due attempt to the next until no task is queued, and no further than
   * {@code limit} from now (a recurring task is queued for ever).
   */
  public ManualTaskgate runUntilIdle(Duration limit) {
    Instant end = engine.now().plus(limit);
    Optional<Instant> next;
    while ((next = engine.nextDue()).isPresent() && !next.get().isAfter(end)) {
      engine.advanceTo(next.get().isBefore(engine.now()) ? engine.now() : next.get());
    }
    return this;
  }

  /** Every attempt that started, in the order they started. */
  public List<Run> runs() {
    return engine.attempts().stream()
        .map(
            a ->
                new Run(
                    a.taskId(),
                    a.task(),
                    a.handlerClass(),
                    a.number(),
                    a.startedAt(),
                    a.throttledUntil(),
                    Run.Outcome.valueOf(a.outcome().name()),
                    a.failure()))
        .toList();
  }

  /** The attempts of task {@code taskId}, in order. */
  public List<Run> runsOf(UUID taskId) {
    return runs().stream().filter(r -> r.taskId().equals(taskId)).toList();
  }

  /** Where task {@code taskId} is in its life. */
  public TaskStatus status(UUID taskId) {
    return engine
        .status(taskId)
        .orElseThrow(() -> new IllegalArgumentException("no task " + taskId + " was dispatched"));
  }

  /** The last failure of task {@code taskId} in words, or empty. */
  public Optional<String> lastError(UUID taskId) {
    return engine.lastError(taskId);
  }
}
