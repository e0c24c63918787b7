package io.taskgate.engine.standalone;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Handler;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Recurrence;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.UpstreamRateLimitException;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitKeys;
import io.taskgate.core.task.AttemptOutcomes;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import io.taskgate.engine.dispatch.DispatchLimits;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.TaskgateExtension;
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
 * reaches its time. The rules are the server's: the handler is read as deployment reads it
 * ({@code @TaskHandler}, {@code @RateLimit} or {@code rateLimitPolicy()}, the key from the task or
 * the handler); a rate-limited task runs when its key's budget allows, in the server's keyed
 * limiter (GCRA, as {@code taskgate.rate-limit.limiter=local}), parked until its reserved slot
 * otherwise, or rejected beyond the horizon; a failed attempt is retried by its policy (jitter from
 * a seeded generator: the same run every time); a recurring task runs at its occurrences; an {@link
 * UpstreamRateLimitException} moves its key's slots. What it leaves out: storage and JSON (the task
 * object is handed over as it is), queues and their parallelism (one attempt at a time), timeouts,
 * unique tasks, and job throttlers (a handler that declares one is refused). Not thread-safe: one
 * test, one thread.
 */
public final class StandaloneEngine {

  /** A registered handler: as deployment reads it, and the instance that runs its tasks. */
  private record Registered(HandlerInfo info, Handler<Task> handler) {}

  /** A task in the engine. */
  private static final class Entry {
    final UUID id;
    final Task task;
    final Registered handler;
    final Recurrence recurrence;
    TaskStatus status = TaskStatus.QUEUED;
    Instant scheduledAt;
    int attempt;
    long runs;
    Instant throttledUntil;
    String lastError;

    Entry(UUID id, Task task, Registered handler, Instant due, Recurrence recurrence) {
      this.id = id;
      this.task = task;
      this.handler = handler;
      this.scheduledAt = due;
      this.recurrence = recurrence;
    }
  }

  /** A time on the timeline: when a task is due or its slot comes ({@code seq}: dispatch order). */
  private record Due(Instant at, long seq, UUID task) {}

  private final Map<Class<? extends Task>, Registered> handlers = new LinkedHashMap<>();
  private final Map<UUID, Entry> tasks = new HashMap<>();
  private final PriorityQueue<Due> timeline =
      new PriorityQueue<>(
          (a, b) -> a.at.equals(b.at) ? Long.compare(a.seq, b.seq) : a.at.compareTo(b.at));
  private final List<Attempt> attempts = new ArrayList<>();
  private final KeyedRateLimiter limiter = new InMemoryKeyedRateLimiter();
  private final SplittableRandom random = new SplittableRandom(0);
  private Instant now;
  private long seq;

  /** An engine whose clock reads {@code start}. */
  public StandaloneEngine(Instant start) {
    now = Objects.requireNonNull(start, "start");
  }

  /** The engine's clock. */
  public Instant now() {
    return now;
  }

  /**
   * Runs the tasks of {@code handler}'s type from now on, reading it as deployment does.
   *
   * @throws IllegalArgumentException naming the handler and the option, as a deployment would fail;
   *     also for a handler that declares a job throttler, which this engine does not run
   */
  @SuppressWarnings("unchecked")
  public void register(Handler<? extends Task> handler) {
    Class<?> type = handler.getClass();
    HandlerInfo info;
    try {
      info = TaskgateExtension.describe((Handler<Task>) handler);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Handler " + type.getName() + ": " + e.getMessage(), e);
    }
    if (info.throttling().isPresent()) {
      throw new IllegalArgumentException(
          "Handler "
              + type.getName()
              + " declares job throttlers (@Mutex, @Semaphore, windows or a concurrency limit):"
              + " the standalone engine runs rate limits and retries, not job throttlers; test"
              + " those in the container");
    }
    Registered was =
        handlers.putIfAbsent(info.taskType(), new Registered(info, (Handler<Task>) handler));
    if (was != null) {
      throw new IllegalArgumentException(
          "Task type "
              + info.taskType().getName()
              + " has two handlers: "
              + was.handler().getClass().getName()
              + " and "
              + type.getName());
    }
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
    Registered handler = handlers.get(task.getClass());
    if (handler == null) {
      throw new IllegalArgumentException(
          "No handler is registered for task type "
              + task.getClass().getName()
              + "; register one with its @TaskHandler class first");
    }
    UUID id = UUID.randomUUID();
    tasks.put(id, new Entry(id, task, handler, due, recurrence));
    timeline.add(new Due(due, seq++, id));
    return id;
  }

  /** Cancels a task that has not started; whether it was QUEUED. */
  public boolean cancel(UUID taskId) {
    Entry entry = tasks.get(taskId);
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
      Entry entry = tasks.get(due.task);
      if (entry.status == TaskStatus.QUEUED && !entry.scheduledAt.isAfter(now)) {
        step(entry);
      }
    }
    now = until;
  }

  /** One turn of a due task: through its rate limit, then its attempt. */
  private void step(Entry entry) {
    Instant slot = gate(entry);
    if (slot != null) {
      entry.throttledUntil = slot;
      timeline.add(new Due(slot, seq++, entry.id)); // parked until its slot
      return;
    }
    if (entry.status == TaskStatus.QUEUED) {
      run(entry);
    }
  }

  /**
   * The rate limit's answer: null to run now; the reserved slot to park until; a rejected task ends
   * here (one-shot: FAILED, recurring: its next occurrence after the slot), returning null.
   */
  private Instant gate(Entry entry) {
    HandlerInfo info = entry.handler.info();
    GateSpec gate = info.gate().orElse(null);
    if (gate == null || (entry.attempt > 0 && !gate.policy().throttleRetries())) {
      return null;
    }
    String key = keyOf(entry);
    if (key == null) {
      return null;
    }
    RateLimitDecision decision = limiter.reserve(gate.scope(), key, entry.id, EpochNanos.of(now));
    switch (decision.outcome()) {
      case RUN_NOW, UNTRACKED:
        return null;
      case DEFERRED:
        return EpochNanos.toInstant(decision.slotEpochNanos());
      default:
        Instant slot = EpochNanos.toInstant(decision.slotEpochNanos());
        RateLimitRejectedException rejected =
            new RateLimitRejectedException(
                info.taskType().getName(),
                info.beanClass().getName(),
                key,
                slot,
                gate.policy(),
                decision.outcome().rejectionReason());
        entry.lastError = rejected.getMessage();
        if (entry.recurrence == null) {
          entry.status = TaskStatus.FAILED;
          TaskContext context = context(entry);
          entry.handler.handler().onError(entry.task, context, rejected);
        } else {
          follow(
              entry,
              AttemptOutcomes.skipped(entry.recurrence, entry.scheduledAt, slot, now, entry.runs));
        }
        return null;
    }
  }

  @SuppressWarnings("unchecked")
  private String keyOf(Entry entry) {
    GateSpec gate = entry.handler.info().gate().orElseThrow();
    String declared =
        switch (gate.keySource()) {
          case TASK ->
              entry.task instanceof RateLimitedTask limited ? limited.rateLimitKey() : null;
          case HANDLER -> entry.handler.handler().rateLimitKey(entry.task);
        };
    return RateLimitKeys.normalize(declared, RateLimitKeys.DEFAULT_MAX_KEY_LENGTH);
  }

  private void run(Entry entry) {
    Handler<Task> handler = entry.handler.handler();
    entry.attempt++;
    TaskContext context = context(entry);
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
    if (failure == null) {
      AttemptOutcomes.Next next =
          AttemptOutcomes.completed(entry.recurrence, entry.scheduledAt, now, entry.runs + 1);
      outcome =
          next instanceof AttemptOutcomes.Occurrence
              ? Attempt.Outcome.NEXT_OCCURRENCE
              : Attempt.Outcome.COMPLETED;
      entry.lastError = null;
      follow(entry, next);
      handler.onCompleted(entry.task, context);
    } else if (failure instanceof UpstreamRateLimitException upstream) {
      outcome = Attempt.Outcome.PUSHED_BACK;
      pushedBack(entry, upstream);
    } else {
      AttemptOutcomes.Next next =
          AttemptOutcomes.failed(
              entry.handler.info().retry(),
              entry.attempt,
              random.nextDouble(),
              entry.recurrence,
              entry.scheduledAt,
              now,
              entry.runs + 1);
      entry.lastError = failure.toString();
      if (next instanceof AttemptOutcomes.Retry retry) {
        outcome = Attempt.Outcome.RETRY;
        follow(entry, next);
        handler.onRetry(entry.task, context, entry.attempt, retry.delay(), failure);
      } else {
        outcome =
            next instanceof AttemptOutcomes.Occurrence
                ? Attempt.Outcome.NEXT_OCCURRENCE
                : Attempt.Outcome.FAILED;
        follow(entry, next);
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

  /** What follows an attempt: due again (a retry, an occurrence) or ended. */
  private void follow(Entry entry, AttemptOutcomes.Next next) {
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
    timeline.add(new Due(entry.scheduledAt, seq++, entry.id));
  }

  /**
   * The upstream asked to slow down: the attempt does not count; a rate-limited task's key starts
   * nothing before the retry-after (its other reservations move with it) and the task comes back to
   * its gate now; one without a key waits the retry-after itself.
   */
  private void pushedBack(Entry entry, UpstreamRateLimitException upstream) {
    entry.attempt--;
    Instant until = now.plus(upstream.retryAfter());
    GateSpec gate = entry.handler.info().gate().orElse(null);
    String key = gate == null ? null : keyOf(entry);
    if (key != null) {
      limiter.shift(gate.scope(), key, EpochNanos.of(until), EpochNanos.of(now), entry.id);
      entry.scheduledAt = now;
    } else {
      entry.scheduledAt = until;
    }
    entry.lastError = "the upstream asked to slow down: retry after " + upstream.retryAfter();
    timeline.add(new Due(entry.scheduledAt, seq++, entry.id));
  }

  private static TaskContext context(Entry entry) {
    return new TaskContext(
        entry.id,
        entry.task.getClass().getName(),
        entry.handler.info().queue(),
        Optional.empty(),
        entry.attempt,
        entry.handler.info().retry().maxAttempts(),
        entry.scheduledAt,
        entry.runs,
        Optional.ofNullable(entry.throttledUntil));
  }
}
