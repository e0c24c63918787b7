package io.taskgate.engine;

import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.core.task.Occurrences;
import io.taskgate.core.task.Recurrence;
import io.taskgate.core.task.TaskStatus;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one attempt of one stored task on the calling worker: claims it (QUEUED → IN_PROGRESS, a
 * compare-and-set, so a task never runs twice at once), calls its handler, and records the outcome:
 * COMPLETED, the next occurrence of a recurring task, a retry after the policy's backoff, or
 * FAILED. A task whose handler or payload cannot be found fails alone.
 */
@ApplicationScoped
public class TaskRunner {
  private static final Logger LOG = Logger.getLogger(TaskRunner.class.getName());

  @Inject TaskStore store;
  @Inject HandlerRegistry registry;
  @Inject Payloads payloads;
  @Inject TaskScheduler scheduler;
  @Inject InstantSource clock;
  @Inject BeanManager beanManager;

  private final SplittableRandom random = new SplittableRandom();

  /**
   * Tasks as the dispatcher has just stored them, so that their first attempt need not read them
   * back. Only a hint: the claim is a compare-and-set on the version, so a task changed since (new
   * payload, cancelled) fails the claim and is read again.
   */
  private final Map<UUID, StoredTask> justStored = new ConcurrentHashMap<>();

  /** Runs the task's attempt, then hands it back to the scheduler if it has more to do. */
  public void run(UUID taskId) {
    FollowUp next = null;
    try {
      next = attempt(taskId);
    } finally {
      scheduler.release(taskId);
    }
    if (next != null) {
      scheduler.submit(next.queue(), taskId, next.due());
    }
  }

  /** The dispatcher has stored {@code task}, due now, and is about to hand it to its queue. */
  void justStored(StoredTask task) {
    justStored.put(task.id(), task);
  }

  /**
   * The dispatcher could not hand the task to its queue: the sweep will, and the runner reads it.
   */
  void forget(UUID taskId) {
    justStored.remove(taskId);
  }

  private record FollowUp(String queue, Instant due) {}

  private FollowUp attempt(UUID taskId) {
    StoredTask hint = justStored.remove(taskId);
    StoredTask queued = hint != null ? hint : store.find(taskId).orElse(null);
    if (queued == null || queued.status() != TaskStatus.QUEUED) {
      return null;
    }
    Instant now = clock.instant();
    if (queued.scheduledAt().isAfter(now)) {
      return new FollowUp(queued.queue(), queued.scheduledAt());
    }
    HandlerInfo handlerInfo = registry.find(queued.type()).orElse(null);
    if (handlerInfo == null) {
      failUnrunnable(queued, "no handler in this application runs task type " + queued.type(), now);
      return null;
    }
    Task task;
    try {
      task = payloads.read(queued.payload(), handlerInfo.taskType());
    } catch (RuntimeException e) {
      failUnrunnable(
          queued, "its payload cannot be read as " + queued.type() + ": " + describe(e), now);
      return null;
    }
    Optional<StoredTask> claimed =
        store.update(
            queued,
            queued.withStatus(TaskStatus.IN_PROGRESS).withAttempt(queued.attempt() + 1),
            now);
    if (claimed.isEmpty()) {
      // Changed since we read it: re-dispatched with a new payload, cancelled, or taken.
      return store
          .find(taskId)
          .filter(t -> t.status() == TaskStatus.QUEUED)
          .map(t -> new FollowUp(t.queue(), t.scheduledAt()))
          .orElse(null);
    }
    return execute(claimed.get(), handlerInfo, task);
  }

  @SuppressWarnings("unchecked")
  private FollowUp execute(StoredTask running, HandlerInfo handlerInfo, Task task) {
    TaskContext context =
        new TaskContext(
            running.id(),
            running.type(),
            running.queue(),
            Optional.ofNullable(running.taskKey()),
            running.attempt(),
            handlerInfo.retry().maxAttempts(),
            running.scheduledAt(),
            running.runs());
    Bean<?> bean = registry.bean(handlerInfo);
    CreationalContext<?> creation = beanManager.createCreationalContext(bean);
    try {
      Type type =
          bean.getTypes().contains(handlerInfo.beanClass())
              ? handlerInfo.beanClass()
              : Object.class;
      Handler<Task> handler;
      try {
        handler = (Handler<Task>) beanManager.getReference(bean, type, creation);
      } catch (RuntimeException e) {
        // No instance, so no callbacks: the attempt fails like any other and follows the policy.
        return failed(
            running,
            handlerInfo,
            NO_CALLBACKS,
            task,
            context,
            new IllegalStateException(
                "handler "
                    + handlerInfo.beanClass().getName()
                    + " could not be created: "
                    + describe(rootCause(e)),
                e),
            clock.instant());
      }
      callback(running, "onStarted", () -> handler.onStarted(task, context));
      Throwable failure = null;
      try {
        handler.handle(task, context);
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        failure = unwrap(e);
      }
      Instant end = clock.instant();
      return failure == null
          ? succeeded(running, handler, task, context, end)
          : failed(running, handlerInfo, handler, task, context, failure, end);
    } finally {
      creation.release();
    }
  }

  private FollowUp succeeded(
      StoredTask running, Handler<Task> handler, Task task, TaskContext context, Instant end) {
    FollowUp next = finishRun(running, TaskStatus.COMPLETED, null, end);
    callback(running, "onCompleted", () -> handler.onCompleted(task, context));
    return next;
  }

  private FollowUp failed(
      StoredTask running,
      HandlerInfo handlerInfo,
      Handler<Task> handler,
      Task task,
      TaskContext context,
      Throwable failure,
      Instant end) {
    String error = describe(failure);
    int attempt = running.attempt();
    if (handlerInfo.retry().retriesAfter(attempt)) {
      Duration delay = handlerInfo.retry().delayAfter(attempt, nextRandom());
      callback(running, "onRetry", () -> handler.onRetry(task, context, attempt, delay, failure));
      Instant due = end.plus(delay);
      record(
          running,
          running.withStatus(TaskStatus.QUEUED).withScheduledAt(due).withLastError(error),
          end);
      return new FollowUp(running.queue(), due);
    }
    LOG.log(
        Level.WARNING,
        "Task " + running.id() + " (" + running.type() + ") failed after attempt " + attempt,
        failure);
    callback(running, "onError", () -> handler.onError(task, context, failure));
    return finishRun(running, TaskStatus.FAILED, error, end);
  }

  /**
   * Records the end of a real execution: a recurring task is queued again at its next occurrence
   * (with a fresh attempt count and {@code error} as its last error), anything else ends in {@code
   * terminal} (keeping the last retry's error when {@code error} is null). Returns the follow-up.
   */
  private FollowUp finishRun(StoredTask running, TaskStatus terminal, String error, Instant end) {
    long runs = running.runs() + 1;
    Optional<Instant> next = nextOccurrence(running, end, runs);
    StoredTask done =
        next.map(
                due ->
                    running
                        .withStatus(TaskStatus.QUEUED)
                        .withScheduledAt(due)
                        .withAttempt(0)
                        .withLastError(error))
            .orElseGet(
                () ->
                    running
                        .withStatus(terminal)
                        .withLastError(error != null ? error : running.lastError()))
            .withRuns(runs);
    record(running, done, end);
    return next.map(due -> new FollowUp(running.queue(), due)).orElse(null);
  }

  /** The next occurrence of a recurring task after a real execution; empty for one-shot tasks. */
  private Optional<Instant> nextOccurrence(StoredTask running, Instant now, long runs) {
    if (running.recurrence() == null) {
      return Optional.empty();
    }
    Recurrence recurrence = Recurrence.decode(running.recurrence());
    return Occurrences.next(recurrence, running.scheduledAt(), now, runs);
  }

  private void failUnrunnable(StoredTask queued, String reason, Instant now) {
    LOG.warning("Task " + queued.id() + " cannot run: " + reason);
    store.update(queued, queued.withStatus(TaskStatus.FAILED).withLastError(reason), now);
  }

  private void record(StoredTask expected, StoredTask changed, Instant now) {
    if (store.update(expected, changed, now).isEmpty()) {
      LOG.warning(
          "Task "
              + expected.id()
              + " changed while it ran; its outcome "
              + changed.status()
              + " was not recorded");
    }
  }

  private void callback(StoredTask task, String name, Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Callback " + name + " of task " + task.id() + " threw; ignored", e);
    }
  }

  private synchronized double nextRandom() {
    return random.nextDouble();
  }

  /** Stands in for a handler that could not be created: it is never asked to handle. */
  private static final Handler<Task> NO_CALLBACKS =
      (task, context) -> {
        throw new IllegalStateException("never called");
      };

  private static Throwable rootCause(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof InvocationTargetException ite && ite.getCause() != null
        ? ite.getCause()
        : e;
  }

  static String describe(Throwable e) {
    String text = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    return text.length() > 2000 ? text.substring(0, 2000) : text;
  }
}
