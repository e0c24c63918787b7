package io.taskgate.engine.handler;

import io.taskgate.api.HandlerInterception;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.TaskTimeoutException;
import io.taskgate.core.time.Ticker;
import jakarta.annotation.Priority;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Wraps every {@code handle} call of a {@link TaskHandler} bean: times it, logs it, counts a gated
 * task's start for its key's spacing right before the call (the worker's {@link HandlerEntry}
 * hook), and enforces the handler's per-attempt timeout by interrupting the worker at the deadline.
 * An attempt that outlives its timeout fails with {@link TaskTimeoutException}, even if the handler
 * ignored the interrupt and returned later. Other methods of the bean pass straight through.
 */
@HandlerInterception
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 100)
public class TaskHandlerInterceptor {
  private static final Logger LOG = Logger.getLogger(TaskHandlerInterceptor.class.getName());

  @Inject HandlerRegistry registry;
  @Inject Ticker ticker;

  /**
   * The container's default scheduled executor, looked up by its standard name when a timeout needs
   * it. Not a {@code @Resource} field: the interceptor is also instantiated for handlers in a WAR
   * of an EAR, whose {@code java:comp/env} has no entry for a class of the EJB jar.
   */
  static final String DEFAULT_SCHEDULER = "java:comp/DefaultManagedScheduledExecutorService";

  private static ManagedScheduledExecutorService scheduler() {
    try {
      return InitialContext.doLookup(DEFAULT_SCHEDULER);
    } catch (NamingException e) {
      throw new IllegalStateException(
          "Taskgate cannot enforce handler timeouts: " + DEFAULT_SCHEDULER + " is not available",
          e);
    }
  }

  @AroundInvoke
  Object aroundHandle(InvocationContext invocation) throws Exception {
    Object[] args = invocation.getParameters();
    if (!invocation.getMethod().getName().equals("handle")
        || args.length != 2
        || !(args[1] instanceof TaskContext context)) {
      return invocation.proceed();
    }
    Optional<Duration> timeout = registry.find(context.taskType()).flatMap(HandlerInfo::timeout);
    long start = ticker.nanos();
    Thread worker = Thread.currentThread();
    AtomicBoolean timedOut = new AtomicBoolean();
    ScheduledFuture<?> alarm =
        timeout
            .<ScheduledFuture<?>>map(
                t ->
                    scheduler()
                        .schedule(
                            () -> {
                              timedOut.set(true);
                              worker.interrupt();
                            },
                            t.toNanos(),
                            TimeUnit.NANOSECONDS))
            .orElse(null);
    try {
      HandlerEntry.enter(); // a gated task's start counts from here; its key's window opens
      Object result = invocation.proceed();
      if (timedOut.get()) {
        throw new TaskTimeoutException(context, timeout.orElseThrow());
      }
      return result;
    } catch (InterruptedException e) {
      if (timedOut.get()) {
        throw new TaskTimeoutException(context, timeout.orElseThrow());
      }
      throw e;
    } finally {
      if (alarm != null) {
        alarm.cancel(false);
        if (timedOut.get()) {
          Thread.interrupted(); // the alarm's interrupt belongs to this attempt only
        }
      }
      long micros = (ticker.nanos() - start) / 1_000;
      LOG.log(
          Level.FINE,
          "Task {0} ({1}) attempt {2} ran {3} µs",
          new Object[] {context.taskId(), context.taskType(), context.attempt(), micros});
    }
  }
}
