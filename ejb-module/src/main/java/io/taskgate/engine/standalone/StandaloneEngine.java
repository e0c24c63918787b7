package io.taskgate.engine.standalone;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Handler;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.Recurrence;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.TaskThrottledException;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.UpstreamRateLimitException;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.task.AttemptOutcomes;
import io.taskgate.engine.dispatch.DispatchLimits;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.TaskgateExtension;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permits;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottleDecision;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Taskgate's engine in one thread, at a clock only {@link #advanceTo} moves: tasks are dispatched
 * to the handlers registered with it, and each attempt runs on the calling thread when the clock
 * reaches its time. The rules are the server's: the handler is read as deployment reads it; its job
 * throttlers and concurrency limit are the server's ({@link JobGate}), asked first; its rate limit
 * is the server's keyed limiter ({@link RateGate}), asked last: a task runs when its key's budget
 * allows, parked until its reserved slot otherwise, or rejected beyond the horizon; a failed
 * attempt is retried by its policy (jitter from a seeded generator: the same run every time); a
 * recurring task runs at its occurrences; an {@link UpstreamRateLimitException} moves its key's
 * slots. What it leaves out: storage and JSON (the task object is handed over as it is), queues and
 * their parallelism (one attempt at a time), timeouts and unique tasks. Not thread-safe.
 */
public final class StandaloneEngine {

  /** A time on the timeline: when a task is due or its slot comes ({@code seq}: arrival order). */
  private record Due(Instant at, long seq, UUID task) {}

  private final Map<Class<? extends Task>, TaskEntry> handlers = new LinkedHashMap<>();
  private final Map<UUID, TaskEntry> tasks = new HashMap<>();
  private final PriorityQueue<Due> timeline =
      new PriorityQueue<>(
          (a, b) -> a.at.equals(b.at) ? Long.compare(a.seq, b.seq) : a.at.compareTo(b.at));
  private final List<Attempt> attempts = new ArrayList<>();
  private final RateGate rates = new RateGate();
  private final JobGate jobs;
  private final SplittableRandom random = new SplittableRandom(0);
  private Instant now;
  private long seq;

  /** An engine whose clock reads {@code start}. */
  public StandaloneEngine(Instant start) {
    now = Objects.requireNonNull(start, "start");
    jobs = new JobGate(this::now, id -> due(id, now));
  }

  /** The engine's clock. */
  public Instant now() {
    return now;
  }

  /**
   * Runs the tasks of {@code handler}'s type from now on, reading it as deployment does.
   *
   * @throws IllegalArgumentException naming the handler and the option, as a deployment would fail
   */
  @SuppressWarnings("unchecked")
  public void register(Handler<? extends Task> handler) {
    Class<?> type = handler.getClass();
    HandlerInfo info;
    try {
      info = TaskgateExtension.describe(handler);
      jobs.chainOf(info);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Handler " + type.getName() + ": " + e.getMessage(), e);
    }
    TaskEntry prototype = new TaskEntry(null, null, info, (Handler<Task>) handler, now, null, now);
    TaskEntry was = handlers.putIfAbsent(info.taskType(), prototype);
    if (was != null) {
      throw new IllegalArgumentException(
          "Task type "
              + info.taskType().getName()
              + " has two handlers: "
              + was.handler.getClass().getName()
              + " and "
              + type.getName());
    }
  }

  /** Defines semaphore {@code id}, as {@code ThrottlingManager#addOrUpdateSemaphore} does. */
  public void addOrUpdateSemaphore(String id, int maxCount) {
    jobs.addOrUpdateSemaphore(id, maxCount);
  }

  /** Defines window {@code id}, as {@code ThrottlingManager#addOrUpdateWindow} does. */
  public void addOrUpdateWindow(ThrottlerKind kind, String id, WindowOptions options) {
    jobs.addOrUpdateWindow(kind, id, options);
  }

  /** Dispatches {@code task}, due as {@code options} say (now by default); returns its id. */
  public UUID dispatch(Task task, DispatchOptions options) {
    return add(task, options.dueAt(now), null);
  }

  /** Schedules recurring {@code task} from its first occurrence; returns its id. */
  public UUID schedule(Task task, Recurrence recurrence) {
    return add(task, DispatchLimits.firstOccurrence(recurrence, now), recurrence);
  }

  private UUID add(Task task, Instant due, Recurrence recurrence) {
    Objects.requireNonNull(task, "task");
    TaskEntry handler = handlers.get(task.getClass());
    if (handler == null) {
      throw new IllegalArgumentException(
          "No handler is registered for task type "
              + task.getClass().getName()
              + "; register one with its @TaskHandler class first");
    }
    UUID id = UUID.randomUUID();
    TaskEntry entry = new TaskEntry(id, task, handler.info, handler.handler, due, recurrence, now);
    checkCost(entry);
    tasks.put(id, entry);
    due(id, due);
    return id;
  }

  /** A cost the server's dispatch refuses: below 1, or above the burst (it could never run). */
  private static void checkCost(TaskEntry entry) {
    if (entry.info.gate().isEmpty()) {
      return;
    }
    int cost = RateGate.costOf(entry);
    int burst = entry.info.gate().get().policy().burst();
    if (cost < 1 || cost > burst) {
      throw new io.taskgate.api.InvalidTaskException(
          entry.info.typeName(),
          null,
          java.util.List.of(
              new io.taskgate.api.InvalidTaskException.Violation(
                  "rateLimitCost()",
                  "must be between 1 and the burst of "
                      + entry.info.beanClass().getName()
                      + "'s rate limit, "
                      + burst,
                  Integer.toString(cost))));
    }
  }

  private void due(UUID id, Instant at) {
    timeline.add(new Due(at, seq++, id));
  }

  /** Cancels a task that has not started; whether it was QUEUED. */
  public boolean cancel(UUID taskId) {
    TaskEntry entry = tasks.get(taskId);
    if (entry == null || entry.status != TaskStatus.QUEUED) {
      return false;
    }
    entry.status = TaskStatus.CANCELLED;
    return true;
  }

  /** The status of task {@code taskId}, or empty for a task this engine does not know. */
  public Optional<TaskStatus> status(UUID taskId) {
    return Optional.ofNullable(tasks.get(taskId)).map(e -> e.status);
  }

  /** The last failure of task {@code taskId} in words, or empty. */
  public Optional<String> lastError(UUID taskId) {
    return Optional.ofNullable(tasks.get(taskId)).map(e -> e.lastError);
  }

  /** When the next attempt is due, or empty when nothing is queued. */
  public Optional<Instant> nextDue() {
    while (!timeline.isEmpty() && tasks.get(timeline.peek().task).status != TaskStatus.QUEUED) {
      timeline.poll();
    }
    return Optional.ofNullable(timeline.peek()).map(Due::at);
  }

  /** Every attempt that started so far, in the order they started. */
  public List<Attempt> attempts() {
    return List.copyOf(attempts);
  }

  /**
   * Moves the clock to {@code until}, running on this thread, in time order, every attempt due up
   * to then (and those they dispatch); the clock reads each attempt's time while it runs.
   */
  public void advanceTo(Instant until) {
    if (until.isBefore(now)) {
      throw new IllegalArgumentException("the clock does not go back: " + until + " < " + now);
    }
    Optional<Instant> next;
    while ((next = nextDue()).isPresent() && !next.get().isAfter(until)) {
      Due due = timeline.poll();
      if (due.at.isAfter(now)) {
        now = due.at;
      }
      TaskEntry entry = tasks.get(due.task);
      if (entry.status == TaskStatus.QUEUED && !entry.scheduledAt.isAfter(now)) {
        step(entry);
      }
    }
    now = until;
  }

  /** One turn of a due task: its job throttlers, its rate limit, then its attempt. */
  private void step(TaskEntry entry) {
    ThrottleChain.Admission admission = jobs.acquire(entry, now);
    if (admission instanceof ThrottleChain.Admission.Refused refused) {
      refused(entry, refused.decision());
      return;
    }
    Permits permits = ((ThrottleChain.Admission.Admitted) admission).permits();
    Object rate = rates.decide(entry, now);
    if (rate != null) {
      jobs.release(permits, AttemptEnd.NOT_STARTED);
      if (rate instanceof RateGate.Deferred deferred) {
        entry.throttledUntil = deferred.slot();
        due(entry.id, deferred.slot()); // parked until its slot
      } else {
        RateLimitRejectedException rejected = (RateLimitRejectedException) rate;
        refused(
            entry,
            new ThrottleDecision.Reject(rejected.getMessage(), rejected.slotUtc(), rejected));
      }
      return;
    }
    run(entry, permits);
  }

  /** What a throttle's refusal makes of a task, as the server's engine does. */
  private void refused(TaskEntry entry, ThrottleDecision decision) {
    if (decision instanceof ThrottleDecision.ParkUntil park) {
      due(entry.id, park.until());
    } else if (decision instanceof ThrottleDecision.RetryAt retry) {
      due(entry.id, retry.at());
    } else if (decision instanceof ThrottleDecision.WaitForRelease wait) {
      jobs.waitFor(wait.resource(), entry);
      if (wait.recheckAt() != null) {
        due(entry.id, wait.recheckAt());
      }
    } else if (decision instanceof ThrottleDecision.HoldOnQueue) {
      due(entry.id, now.plusSeconds(1)); // the parking lot's answer; none here has one
    } else if (decision instanceof ThrottleDecision.Drop drop) {
      ended(entry, TaskStatus.CANCELLED, drop.reason());
      entry.handler.onError(
          entry.task, entry.context(), new TaskThrottledException(drop.throttle(), drop.reason()));
    } else if (decision instanceof ThrottleDecision.SkipOccurrence skip) {
      entry.lastError = skip.reason();
      follow(entry, skipped(entry, skip.notBefore()));
    } else {
      ThrottleDecision.Reject reject = (ThrottleDecision.Reject) decision;
      if (entry.recurrence != null) {
        entry.lastError = reject.reason();
        follow(entry, skipped(entry, reject.slot() == null ? now : reject.slot()));
      } else {
        ended(entry, TaskStatus.FAILED, reject.reason());
        entry.handler.onError(entry.task, entry.context(), reject.cause());
      }
    }
  }

  private AttemptOutcomes.Next skipped(TaskEntry entry, Instant notBefore) {
    return AttemptOutcomes.skipped(entry.recurrence, entry.scheduledAt, notBefore, now, entry.runs);
  }

  private void ended(TaskEntry entry, TaskStatus status, String error) {
    entry.status = status;
    entry.lastError = error;
  }

  private void run(TaskEntry entry, Permits permits) {
    Handler<Task> handler = entry.handler;
    entry.attempt++;
    TaskContext context = entry.context();
    Instant started = now;
    Instant heldUntil = entry.throttledUntil;
    entry.throttledUntil = null;
    Throwable failure = null;
    try {
      handler.onStarted(entry.task, context);
      handler.handle(entry.task, context);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      failure = e; // as the server's worker: the handler's failure, whatever it is
    }
    Attempt.Outcome outcome;
    if (failure instanceof UpstreamRateLimitException upstream) {
      jobs.release(permits, AttemptEnd.RETRIED);
      outcome = Attempt.Outcome.PUSHED_BACK;
      pushedBack(entry, upstream);
    } else {
      AttemptOutcomes.Next next =
          failure == null
              ? AttemptOutcomes.completed(entry.recurrence, entry.scheduledAt, now, entry.runs + 1)
              : AttemptOutcomes.failed(
                  entry.info.retry(),
                  entry.attempt,
                  random.nextDouble(),
                  entry.recurrence,
                  entry.scheduledAt,
                  now,
                  entry.runs + 1);
      outcome =
          next instanceof AttemptOutcomes.Retry
              ? Attempt.Outcome.RETRY
              : next instanceof AttemptOutcomes.Occurrence
                  ? Attempt.Outcome.NEXT_OCCURRENCE
                  : failure == null ? Attempt.Outcome.COMPLETED : Attempt.Outcome.FAILED;
      jobs.release(
          permits,
          failure == null
              ? AttemptEnd.COMPLETED
              : outcome == Attempt.Outcome.RETRY ? AttemptEnd.RETRIED : AttemptEnd.FAILED);
      entry.lastError = failure == null ? null : failure.toString();
      follow(entry, next);
      if (failure == null) {
        handler.onCompleted(entry.task, context);
      } else if (next instanceof AttemptOutcomes.Retry retry) {
        handler.onRetry(entry.task, context, entry.attempt, retry.delay(), failure);
      } else {
        handler.onError(entry.task, context, failure);
      }
    }
    attempts.add(
        new Attempt(
            entry.id,
            entry.task,
            handler.getClass(),
            context.attempt(),
            started,
            heldUntil,
            outcome,
            failure));
  }

  /**
   * What follows an attempt or a skipped occurrence: due again (a retry, an occurrence) or ended.
   */
  private void follow(TaskEntry entry, AttemptOutcomes.Next next) {
    if (next instanceof AttemptOutcomes.Retry retry) {
      entry.scheduledAt = retry.due();
    } else if (next instanceof AttemptOutcomes.Occurrence occurrence) {
      entry.scheduledAt = occurrence.due();
      entry.attempt = 0;
      entry.runs++;
    } else {
      entry.status = ((AttemptOutcomes.Ended) next).status();
      entry.runs++;
      return;
    }
    due(entry.id, entry.scheduledAt);
  }

  /**
   * The upstream asked to slow down: the attempt does not count; a rate-limited task's key starts
   * nothing before the retry-after (its other reservations move with it) and the task comes back to
   * its gate now; one without a key waits the retry-after itself.
   */
  private void pushedBack(TaskEntry entry, UpstreamRateLimitException upstream) {
    entry.attempt--;
    Instant until = now.plus(upstream.retryAfter());
    entry.scheduledAt = rates.pushBack(entry, until, now) ? now : until;
    entry.lastError = "the upstream asked to slow down: retry after " + upstream.retryAfter();
    due(entry.id, entry.scheduledAt);
  }
}
