package io.taskgate.engine;

import io.taskgate.engine.queue.QueueWiring;
import io.taskgate.engine.queue.TaskQueues;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.Config;

/**
 * Engine parts outside a container, for unit tests: a {@link TaskQueues} on plain executors, with
 * settings from a map.
 */
public final class EngineParts {
  private EngineParts() {}

  /** Queues whose workers run on {@code threads} and hand their batches to {@code runner}. */
  public static TaskQueues queues(
      Map<String, String> settings, ExecutorService threads, Consumer<List<UUID>> runner) {
    return queues(settings, threads, (batch, starts) -> runner.accept(batch));
  }

  /** Queues whose workers hand their batches, with the queue's start lane, to {@code runner}. */
  public static TaskQueues queues(
      Map<String, String> settings, ExecutorService threads, TaskQueues.Worker runner) {
    TaskQueues queues =
        QueueWiring.queues(
            config(settings),
            managed(ManagedExecutorService.class, threads, new AtomicInteger()),
            System::nanoTime);
    queues.open();
    queues.onTask(runner);
    queues.startConsuming();
    return queues;
  }

  /**
   * {@code threads} as a managed executor of type {@code type}; {@code submissions} counts the
   * tasks handed to it ({@code execute}, {@code schedule} and {@code scheduleAtFixedRate}).
   */
  public static <T> T managed(Class<T> type, ExecutorService threads, AtomicInteger submissions) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "execute" -> {
                  submissions.incrementAndGet();
                  threads.execute((Runnable) args[0]);
                  return null;
                }
                case "schedule" -> {
                  if (args.length == 3 && args[0] instanceof Runnable task) {
                    submissions.incrementAndGet();
                    return ((ScheduledExecutorService) threads)
                        .schedule(task, (Long) args[1], (TimeUnit) args[2]);
                  }
                  throw new AssertionError("not expected here: " + method);
                }
                case "scheduleAtFixedRate" -> {
                  submissions.incrementAndGet();
                  return ((ScheduledExecutorService) threads)
                      .scheduleAtFixedRate(
                          (Runnable) args[0], (Long) args[1], (Long) args[2], (TimeUnit) args[3]);
                }
                default -> throw new AssertionError("not expected here: " + method);
              }
            }));
  }

  /** A scheduled executor as {@link ManagedScheduledExecutorService}, counting its schedules. */
  public static ManagedScheduledExecutorService timers(
      ScheduledExecutorService threads, AtomicInteger schedules) {
    return managed(ManagedScheduledExecutorService.class, threads, schedules);
  }

  /** MicroProfile Config answering {@code getOptionalValue} from {@code settings}. */
  public static Config config(Map<String, String> settings) {
    return (Config)
        Proxy.newProxyInstance(
            Config.class.getClassLoader(),
            new Class<?>[] {Config.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getOptionalValue")) {
                String value = settings.get((String) args[0]);
                if (value == null) {
                  return Optional.empty();
                }
                Class<?> type = (Class<?>) args[1];
                return Optional.of(type == Integer.class ? Integer.valueOf(value) : value);
              }
              throw new AssertionError("not expected here: " + method);
            });
  }
}
