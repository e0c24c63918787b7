package io.taskgate.engine;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The in-memory channels between the store and the workers: one bounded channel per queue, drained
 * by at most {@code parallelism} workers on the {@link ManagedExecutorService}. Workers are started
 * when there is work and end when the channel is empty, so an idle queue holds no thread.
 *
 * <p>A worker takes one task at a time while the queue's tasks are slow, and a few at once (so that
 * the runner claims and records them together) while they are short: as many as fit in about
 * {@value #BATCH_MILLIS} ms at the queue's recent average time per task, at most {@value
 * #MAX_BATCH}, and never more than its share of the backlog (the tasks waiting divided by the
 * parallelism), so that the other workers get theirs.
 */
@ApplicationScoped
public class TaskQueues {
  private static final Logger LOG = Logger.getLogger(TaskQueues.class.getName());

  @Resource ManagedExecutorService executor;

  @Inject QueueSettings settings;

  private final Map<String, Channel> channels = new ConcurrentHashMap<>();
  private final Set<String> unknownQueuesLogged = ConcurrentHashMap.newKeySet();
  static final int MAX_BATCH = 16;
  static final long BATCH_MILLIS = 10;

  private Consumer<List<UUID>> runner;
  private Duration maxWait;

  @PostConstruct
  void open() {
    settings.queues().forEach((name, sizes) -> channels.put(name, new Channel(name, sizes)));
    maxWait = settings.maxDispatchWait();
  }

  /** Sets what workers do with a task id; the engine calls this once at start. */
  void onTask(Consumer<List<UUID>> runner) {
    this.runner = runner;
  }

  /** The queue {@code requested} resolves to: itself if configured, else the default queue. */
  public String resolve(String requested) {
    if (channels.containsKey(requested)) {
      return requested;
    }
    if (unknownQueuesLogged.add(requested)) {
      LOG.warning(
          "Taskgate queue '"
              + requested
              + "' is not configured (taskgate.queues); its tasks run on the default queue");
    }
    return QueueSettings.DEFAULT_QUEUE;
  }

  /**
   * Puts a task id on its queue's channel, waiting up to {@code taskgate.dispatch.max-wait} for
   * room.
   *
   * @throws QueueFullException if the channel stays full; the task is stored and runs later
   */
  public void enqueue(String queue, UUID taskId) {
    Channel channel = channels.get(resolve(queue));
    try {
      if (!channel.tasks.offer(taskId, maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new QueueFullException(channel.name, channel.tasks.size(), maxWait, taskId);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueFullException(channel.name, channel.tasks.size(), maxWait, taskId);
    }
    channel.startWorkers();
  }

  /** Task ids waiting in each queue's channel. */
  public Map<String, Integer> depths() {
    Map<String, Integer> depths = new java.util.LinkedHashMap<>();
    channels.forEach((name, channel) -> depths.put(name, channel.tasks.size()));
    return depths;
  }

  /**
   * How many tasks a worker takes at once: what fits in {@value #BATCH_MILLIS} ms at {@code
   * nanosPerTask}, at most {@value #MAX_BATCH}, at most its share of the {@code waiting} tasks
   * besides the one it has, and at least 1.
   */
  static int batchSize(long nanosPerTask, int waiting, int parallelism) {
    long fit = TimeUnit.MILLISECONDS.toNanos(BATCH_MILLIS) / Math.max(1, nanosPerTask);
    long share = 1 + waiting / Math.max(1, parallelism);
    return (int) Math.max(1, Math.min(Math.min(fit, share), MAX_BATCH));
  }

  private final class Channel {
    final String name;
    final ArrayBlockingQueue<UUID> tasks;
    final int parallelism;
    final AtomicInteger workers = new AtomicInteger();

    Channel(String name, QueueSettings.Sizes sizes) {
      this.name = name;
      this.tasks = new ArrayBlockingQueue<>(sizes.capacity());
      this.parallelism = sizes.parallelism();
    }

    void startWorkers() {
      while (!tasks.isEmpty()) {
        int n = workers.get();
        if (n >= parallelism) {
          return;
        }
        if (workers.compareAndSet(n, n + 1)) {
          executor.execute(this::drain);
        }
      }
    }

    /** Recent average nanoseconds per task (exponentially weighted); starts as "slow". */
    private volatile long nanosPerTask = TimeUnit.MILLISECONDS.toNanos(BATCH_MILLIS);

    private void drain() {
      try {
        List<UUID> batch = new ArrayList<>(MAX_BATCH);
        UUID first;
        while ((first = tasks.poll()) != null) {
          batch.add(first);
          int take = batchSize(nanosPerTask, tasks.size(), parallelism) - 1;
          if (take > 0) {
            tasks.drainTo(batch, take);
          }
          long start = System.nanoTime();
          try {
            runner.accept(batch);
          } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Taskgate worker failed on task(s) " + batch, e);
          }
          long perTask = (System.nanoTime() - start) / batch.size();
          nanosPerTask = (nanosPerTask * 7 + perTask) / 8;
          batch.clear();
        }
      } finally {
        workers.decrementAndGet();
        startWorkers();
      }
    }
  }
}
