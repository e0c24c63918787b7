package io.taskgate.engine.run;

import io.taskgate.api.Handler;
import io.taskgate.api.Recurrence;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskTimeoutException;
import io.taskgate.api.UpstreamRateLimitException;
import io.taskgate.core.task.AttemptOutcomes;
import io.taskgate.core.time.Ticker;
import io.taskgate.engine.handler.HandlerEntry;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerInvoker;
import io.taskgate.engine.handler.TaskHandlerInterceptor;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.StartCheck;
import io.taskgate.engine.trace.TaskTracing;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.SplittableRandom;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one attempt of a claimed task: its start is checked by its throttles at the last moment
 * ({@link StartCheck}: the rate limit keeps its key's spacing), its handler is called with {@code
 * onStarted} before and {@code onCompleted}, {@code onRetry} or {@code onError} after, and what
 * follows is decided by {@link AttemptOutcomes}: COMPLETED, the next occurrence of a recurring
 * task, a retry after the policy's backoff, or FAILED.
 */
@ApplicationScoped
public class AttemptExecutor {
  private static final Logger LOG = Logger.getLogger(AttemptExecutor.class.getName());

  private final InstantSource clock;
  private final HandlerInvoker invoker;
  private final Wakeups wakeups;
  private final ClaimsAhead ahead;
  private final Ticker ticker;
  private final UpstreamPushBack pushBack;
  private final TaskTracing tracing;

  private final SplittableRandom random = new SplittableRandom();

  /** For the CDI proxy. */
  protected AttemptExecutor() {
    this(null, null, null, null, null, null, null);
  }

  @Inject
  AttemptExecutor(
      InstantSource clock,
      HandlerInvoker invoker,
      Wakeups wakeups,
      ClaimsAhead ahead,
      Ticker ticker,
      UpstreamPushBack pushBack,
      TaskTracing tracing) {
    this.clock = clock;
    this.invoker = invoker;
    this.wakeups = wakeups;
    this.ahead = ahead;
    this.ticker = ticker;
    this.pushBack = pushBack;
    this.tracing = tracing;
  }

  /**
   * Runs the attempt of a claimed task now; null if, at the last moment, a throttle holds it back
   * ({@link StartCheck#holdUntil}: it then waits on the timeline). {@code held}: null, or how it
   * was held back last time.
   */
  AttemptOutcome execute(StoredTask claimed, Claim claim, StartCheck.Hold held) {
    HandlerInfo handlerInfo = claim.handler();
    Task task = claim.task();
    TaskContext context = HandlerInvoker.context(claimed, handlerInfo, claim.throttledUntil());
    try (HandlerInvoker.Instance instance = invoker.instance(handlerInfo)) {
      Handler<Task> handler;
      try {
        handler = instance.handler();
      } catch (RuntimeException e) {
        // No instance, so no callbacks: the attempt fails like any other and follows the policy.
        return failed(
            claimed,
            claim,
            HandlerInvoker.NO_CALLBACKS,
            task,
            context,
            new IllegalStateException(
                "handler "
                    + handlerInfo.beanClass().getName()
                    + " could not be created: "
                    + HandlerInvoker.describe(HandlerInvoker.rootCause(e)),
                e),
            clock.instant(),
            TaskTracing.Attempt.NONE);
      }
      if (!started(claimed, claim, held, handler, task, context)) {
        return null; // the handler instance is let go; a new one runs it later
      }
      TaskTracing.Attempt span = tracing.attempt(claimed);
      try {
        return handled(claimed, claim, handler, task, context, span);
      } finally {
        span.ended("engine-failed", null); // unless it ended with its outcome
      }
    }
  }

  /** Calls the handler of an attempt that started, in its span, and decides what follows. */
  private AttemptOutcome handled(
      StoredTask claimed,
      Claim claim,
      Handler<Task> handler,
      Task task,
      TaskContext context,
      TaskTracing.Attempt span) {
    HandlerInfo handlerInfo = claim.handler();
    Throwable failure = null;
    long handling = ticker.nanos();
    try (TaskTracing.Scope current = span.enter()) {
      handler.handle(task, context);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      failure = HandlerInvoker.unwrap(e);
    } finally {
      HandlerEntry.enter(); // not intercepted: the window opens only now
    }
    long handled = ticker.nanos() - handling;
    invoker.timed(handlerInfo, handled);
    HandOff.ran(handled);
    Instant end = clock.instant();
    if (failure == null) {
      wakeups.released(claim.permits().release(AttemptEnd.COMPLETED));
      AttemptOutcomes.Next next =
          AttemptOutcomes.completed(
              recurrence(claimed), claimed.scheduledAt(), end, claimed.runs() + 1);
      span.ended(TaskTracing.outcome(next), null);
      return Outcomes.afterRun(
          claimed,
          next,
          null,
          end,
          () -> invoker.callback(claimed, "onCompleted", () -> handler.onCompleted(task, context)));
    }
    return failed(claimed, claim, handler, task, context, failure, end, span);
  }

  /**
   * The start of a claimed task, checked as late as can be: false if its throttles' {@link
   * StartCheck} holds it back (it then waits on the timeline). The check stays open until the
   * handler is entered, when {@link TaskHandlerInterceptor} runs its {@link HandlerEntry} hook: for
   * a rate-limited task, a worker stalled on the way there holds the key's other starts.
   */
  private boolean started(
      StoredTask claimed,
      Claim claim,
      StartCheck.Hold held,
      Handler<Task> handler,
      Task task,
      TaskContext context) {
    StartCheck check = claim.permits().startCheck(claimed.id());
    if (check == StartCheck.NONE) {
      invoker.callback(claimed, "onStarted", () -> handler.onStarted(task, context));
      return true;
    }
    check.open();
    boolean entering = false;
    try {
      Instant now = clock.instant();
      StartCheck.Hold hold = check.holdUntil(now, held);
      if (hold != null) {
        tracing.heldUntil(claimed, hold.until(), "held at its start for its key's spacing", now);
        ahead.waitOnTimeline(claimed, claim, hold.until(), hold);
        return false;
      }
      invoker.callback(claimed, "onStarted", () -> handler.onStarted(task, context));
      check.starting(clock.instant());
      entering = true;
    } finally {
      if (!entering) {
        check.close();
      }
    }
    HandlerEntry.onEnter(
        () -> {
          try {
            check.entered(clock.instant());
          } finally {
            check.close();
          }
        });
    return true;
  }

  private AttemptOutcome failed(
      StoredTask claimed,
      Claim claim,
      Handler<Task> handler,
      Task task,
      TaskContext context,
      Throwable failure,
      Instant end,
      TaskTracing.Attempt span) {
    if (failure instanceof UpstreamRateLimitException upstream) {
      span.ended("pushed-back", failure);
      wakeups.released(claim.permits().release(AttemptEnd.RETRIED));
      return pushBack.pushedBack(claimed, claim, upstream, end);
    }
    HandlerInfo handlerInfo = claim.handler();
    String error = HandlerInvoker.describe(failure);
    int attempt = claimed.attempt();
    AttemptOutcomes.Next next =
        AttemptOutcomes.failed(
            handlerInfo.retry(),
            attempt,
            nextRandom(),
            recurrence(claimed),
            claimed.scheduledAt(),
            end,
            claimed.runs() + 1);
    AttemptEnd ended =
        next instanceof AttemptOutcomes.Retry
            ? AttemptEnd.RETRIED
            : failure instanceof TaskTimeoutException ? AttemptEnd.TIMED_OUT : AttemptEnd.FAILED;
    span.ended(TaskTracing.outcome(next), failure);
    wakeups.released(claim.permits().release(ended));
    if (next instanceof AttemptOutcomes.Retry retry) {
      invoker.callback(
          claimed,
          "onRetry",
          () -> handler.onRetry(task, context, attempt, retry.delay(), failure));
    } else {
      LOG.log(
          Level.WARNING,
          "Task " + claimed.id() + " (" + claimed.type() + ") failed after attempt " + attempt,
          failure);
      invoker.callback(claimed, "onError", () -> handler.onError(task, context, failure));
    }
    return Outcomes.afterRun(claimed, next, error, end, null);
  }

  /**
   * The outcome of an attempt the engine itself failed on after the claim (a class it could not
   * load while the application was being deployed again, say): a failed attempt under the handler's
   * retry policy, without callbacks, so that the task is never left IN_PROGRESS with nobody running
   * it. Its permits go back as the attempt's end.
   */
  AttemptOutcome engineFailed(StoredTask claimed, Claim claim, Throwable fault) {
    Instant end = clock.instant();
    String error = "Taskgate failed while running the attempt: " + HandlerInvoker.describe(fault);
    AttemptOutcomes.Next next =
        AttemptOutcomes.failed(
            claim.handler().retry(),
            claimed.attempt(),
            nextRandom(),
            recurrence(claimed),
            claimed.scheduledAt(),
            end,
            claimed.runs() + 1);
    boolean retried = next instanceof AttemptOutcomes.Retry;
    wakeups.released(claim.permits().release(retried ? AttemptEnd.RETRIED : AttemptEnd.FAILED));
    LOG.log(
        Level.SEVERE,
        "Task "
            + claimed.id()
            + " ("
            + claimed.type()
            + "): "
            + error
            + (retried ? "; retried by its policy" : "; failed, no retry left"),
        fault);
    return Outcomes.afterRun(claimed, next, error, end, null);
  }

  private static Recurrence recurrence(StoredTask task) {
    return task.recurrence() == null ? null : Recurrence.decode(task.recurrence());
  }

  private synchronized double nextRandom() {
    return random.nextDouble();
  }
}
