package io.taskgate.engine.handler;

import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Handler instances and their calls: creates a handler's instance for a task (a CDI reference of
 * its own, released afterwards), runs its callbacks so that a callback that throws is logged and
 * ignored, keeps how long each handler's calls take recently ({@link #quick}), and describes a
 * failure for the task's last error.
 */
@ApplicationScoped
public class HandlerInvoker {
  private static final Logger LOG = Logger.getLogger(HandlerInvoker.class.getName());

  /**
   * A handler whose calls took less than this, on average, recently, can be started by a worker
   * waiting for a commit ((the run package's commit-time starts)): what it holds up of that
   * worker's own tasks is about as long.
   */
  static final long QUICK_HANDLER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /** Stands in for a handler that could not be created: it is never asked to handle. */
  public static final Handler<Task> NO_CALLBACKS =
      (task, context) -> {
        throw new IllegalStateException("never called");
      };

  @Inject HandlerRegistry registry;
  @Inject BeanManager beanManager;

  /**
   * Recent time per call of each handler, by handler class (one per task type; a class hashes by
   * identity, where the handler's record would hash its policies on every task): nanoseconds,
   * exponentially weighted.
   */
  private final Map<Class<?>, AtomicLong> handlerNanos = new ConcurrentHashMap<>();

  /** A handler instance of its own for one use, and the context that releases it. */
  public final class Instance implements AutoCloseable {
    private final HandlerInfo handlerInfo;
    private final Bean<?> bean;
    private final CreationalContext<?> creation;

    Instance(HandlerInfo handlerInfo) {
      this.handlerInfo = handlerInfo;
      this.bean = registry.bean(handlerInfo);
      this.creation = beanManager.createCreationalContext(bean);
    }

    /** The handler (created now); throws if it cannot be created. */
    @SuppressWarnings("unchecked")
    public Handler<Task> handler() {
      Type type =
          bean.getTypes().contains(handlerInfo.beanClass())
              ? handlerInfo.beanClass()
              : Object.class;
      return (Handler<Task>) beanManager.getReference(bean, type, creation);
    }

    @Override
    public void close() {
      creation.release();
    }
  }

  /** A handler instance for one use; close it afterwards. */
  public Instance instance(HandlerInfo handlerInfo) {
    return new Instance(handlerInfo);
  }

  /** Runs {@code action} on a handler instance of its own, as a callback (failures logged). */
  public void withHandler(
      StoredTask task, HandlerInfo handlerInfo, String name, Consumer<Handler<Task>> action) {
    try (Instance instance = instance(handlerInfo)) {
      Handler<Task> handler = instance.handler();
      callback(task, name, () -> action.accept(handler));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "The handler of task " + task.id() + " could not be created", e);
    }
  }

  /** Runs a callback of the task's handler; what it throws is logged and ignored. */
  public void callback(StoredTask task, String name, Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Callback " + name + " of task " + task.id() + " threw; ignored", e);
    }
  }

  /** The context a handler sees for this attempt of {@code task}. */
  public static TaskContext context(
      StoredTask task, HandlerInfo handlerInfo, Instant throttledUntil) {
    return new TaskContext(
        task.id(),
        task.type(),
        task.queue(),
        Optional.ofNullable(task.taskKey()),
        task.attempt(),
        handlerInfo.retry().maxAttempts(),
        task.scheduledAt(),
        task.runs(),
        Optional.ofNullable(throttledUntil));
  }

  /** A call of the handler took {@code nanos}. */
  public void timed(HandlerInfo handler, long nanos) {
    AtomicLong average =
        handlerNanos.computeIfAbsent(handler.beanClass(), c -> new AtomicLong(nanos));
    average.updateAndGet(was -> (was * 7 + nanos) / 8);
  }

  /** Whether the handler's calls took less than {@link #QUICK_HANDLER_NANOS} recently. */
  public boolean quick(HandlerInfo handler) {
    AtomicLong average = handlerNanos.get(handler.beanClass());
    return average != null && average.get() < QUICK_HANDLER_NANOS;
  }

  public static Throwable rootCause(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }

  public static Throwable unwrap(Throwable e) {
    return e instanceof InvocationTargetException ite && ite.getCause() != null
        ? ite.getCause()
        : e;
  }

  /** The error recorded for a failure: its class and message, at most 2,000 characters. */
  public static String describe(Throwable e) {
    String text = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    return text.length() > 2000 ? text.substring(0, 2000) : text;
  }
}
