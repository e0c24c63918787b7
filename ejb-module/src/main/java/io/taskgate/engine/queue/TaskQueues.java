package io.taskgate.engine.queue;

import io.taskgate.api.QueueFullException;
import io.taskgate.core.time.Ticker;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * The in-memory channels between the store and the workers: one bounded channel per queue, drained
 * by at most {@code parallelism} workers on the {@link ManagedExecutorService}. Workers are started
 * when there is work; a worker whose channel is empty waits up to {@value #LINGER_MILLIS} ms for
 * more before it ends, so an idle queue holds no thread, while a queue with a steady trickle of
 * tasks (a rate-limited key's slots, a few ms apart) keeps its workers instead of submitting one to
 * the executor per task: each submission captures the caller's context, which on Payara costs a
 * class-path scan.
 *
 * <p>A worker takes one task at a time while the queue's tasks are slow, and a few at once (so that
 * the runner claims and records them together) while they are short: as many as fit in about
 * {@value #BATCH_MILLIS} ms at the queue's recent average time per task, at most {@value
 * #MAX_BATCH}, and never more than its share of the backlog (the tasks waiting divided by the
 * parallelism), so that the other workers get theirs.
 *
 * <p>Each channel has a second lane for tasks whose rate-limit slot has come ({@link #enqueueDue}):
 * workers take from it first, so that a redemption waits for no backlog of fresh tasks, only for a
 * worker to finish its current batch. It is outside the capacity (those tasks took their place in
 * the queue once already, and the parking-lot cap bounds them), and after {@value #DUE_STREAK} due
 * batches in a row a worker takes one batch of the queue's own, so that a flood of redemptions
 * slows the other tasks of the queue without starving them.
 *
 * <p>A third lane, taken before the due lane, holds tasks claimed ahead of their slot whose slot
 * has come ({@link #enqueueStart}): they need only their handler's call. A worker waiting for the
 * store to commit its own writes takes from it too ({@link StartLane}), so that a start waits
 * neither for a worker's batch nor for a slow commit.
 */
@ApplicationScoped
public class TaskQueues {
  private static final Logger LOG = Logger.getLogger(TaskQueues.class.getName());

  @Resource ManagedExecutorService executor;

  @Inject QueueSettings settings;
  @Inject Ticker ticker;

  private final Map<String, Channel> channels = new ConcurrentHashMap<>();
  private final Set<String> unknownQueuesLogged = ConcurrentHashMap.newKeySet();
  public static final int MAX_BATCH = 16;
  public static final long BATCH_MILLIS = 10;
  static final int DUE_STREAK = 8;

  /** How long a worker with nothing to do waits for more before it ends. */
  static final long LINGER_MILLIS = 500;

  volatile boolean closed;

  /** False until {@link #startConsuming}: tasks wait in their channels, no handler runs. */
  volatile boolean consuming;

  Worker runner;

  /** Told when a channel that refused a task has room again (see {@link #onRoom}). */
  volatile Runnable roomListener = () -> {};

  /** What a worker does with the tasks it took. */
  public interface Worker {
    /**
     * Runs {@code batch}; {@code starts} is the queue's lane of tasks to start at once, for the
     * worker to take from while it waits for the store.
     */
    void run(List<UUID> batch, StartLane starts);
  }

  /**
   * A queue's lane of tasks claimed ahead of their slot whose slot has come ({@link
   * #enqueueStart}): they need no read and no write before their handler is called.
   */
  public interface StartLane {
    /** The first task on the lane that {@code takes} accepts (taken off the lane), or null. */
    UUID pollStart(Predicate<UUID> takes);

    /** The calling worker waits for the store (true) or no longer: a start then wakes it. */
    void waitingForStore(boolean waiting);

    /** Puts a task taken off the lane that turned out not to be ready on the due lane. */
    void toDueLane(UUID taskId);

    /**
     * The calling worker ran {@code tasks} more than the batch it took (handed over to it on the
     * way), so that the queue's time per task counts them.
     */
    void ranMore(int tasks);
  }

  private Duration maxWait;

  @PostConstruct
  public void open() {
    settings.queues().forEach((name, sizes) -> channels.put(name, new Channel(this, name, sizes)));
    maxWait = settings.maxDispatchWait();
  }

  /** Wakes the lingering workers so that they end now. */
  @PreDestroy
  void close() {
    closed = true;
    channels.values().forEach(Channel::wakeAll);
  }

  /** Sets what workers do with a task id; the engine calls this once at start. */
  public void onTask(Worker runner) {
    this.runner = runner;
  }

  /**
   * Sets what to call when a channel that refused a task (it was full) is down to half its
   * capacity: the engine reads the store for the tasks it could not queue, so that a backlog larger
   * than the queue flows in as fast as the workers take it, not once a sweep interval.
   */
  public void onRoom(Runnable listener) {
    this.roomListener = listener;
  }

  /**
   * Lets workers start: until then tasks wait in their channels and no handler runs. The engine
   * calls this once the application has initialised, so that no handler runs before the
   * application's own start-up code.
   */
  public void startConsuming() {
    consuming = true;
    channels.values().forEach(Channel::startWorkers);
  }

  /** The configured queues' names. */
  public Set<String> names() {
    return java.util.Collections.unmodifiableSet(channels.keySet());
  }

  /** Whether workers may run ({@link #startConsuming} was called). */
  public boolean consuming() {
    return consuming;
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
    enqueue(queue, taskId, maxWait);
  }

  /**
   * Puts a task id on its queue's channel, waiting up to {@code wait} for room.
   *
   * @throws QueueFullException if the channel stays full; the task is stored and runs later
   */
  public void enqueue(String queue, UUID taskId, Duration wait) {
    Channel channel = channels.get(resolve(queue));
    try {
      if (!channel.offer(taskId, wait.toNanos())) {
        throw new QueueFullException(channel.name, channel.occupied(), wait, taskId);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueFullException(channel.name, channel.occupied(), wait, taskId);
    }
    channel.startWorkers();
  }

  /**
   * Puts a task whose rate-limit slot has come on its queue's due lane, ahead of the queue's other
   * tasks. Never waits: the lane is outside the queue's capacity.
   */
  public void enqueueDue(String queue, UUID taskId) {
    Channel channel = channels.get(resolve(queue));
    channel.due.add(taskId);
    channel.startWorkers();
  }

  /**
   * Puts a task claimed ahead of its slot, whose slot has come, on its queue's start lane: taken
   * before anything else, and also by a worker that waits for the store meanwhile ({@link
   * StartLane}), so that a slow commit holds no start up. Never waits.
   */
  public void enqueueStart(String queue, UUID taskId) {
    Channel channel = channels.get(resolve(queue));
    channel.starts.add(taskId);
    channel.startWorkers();
    channel.wakeWaitingForStore();
  }

  /**
   * Sets a task aside on its queue until {@link #releaseHeld} (the parking lot is full): it keeps
   * its place in the queue's capacity, so that a queue full of held tasks pushes back on its
   * producers, while the other tasks of the queue go on running.
   */
  public void hold(String queue, UUID taskId) {
    channels.get(resolve(queue)).hold(taskId);
  }

  /** Puts up to {@code max} held tasks back on their queues. Returns how many. */
  public int releaseHeld(int max) {
    int released = 0;
    for (Channel channel : channels.values()) {
      released += channel.unhold(max - released);
    }
    return released;
  }

  /** Drops a held task (it was cancelled). Returns whether it was held. */
  public boolean dropHeld(UUID taskId) {
    for (Channel channel : channels.values()) {
      if (channel.drop(taskId)) {
        return true;
      }
    }
    return false;
  }

  /** Tasks set aside because the parking lot is full, in all queues. */
  public int held() {
    int held = 0;
    for (Channel channel : channels.values()) {
      held += channel.held.size();
    }
    return held;
  }

  /** Tasks set aside because the parking lot is full, per queue (every queue, 0 included). */
  public Map<String, Integer> heldByQueue() {
    Map<String, Integer> held = new java.util.LinkedHashMap<>();
    channels.forEach((name, channel) -> held.put(name, channel.held.size()));
    return held;
  }

  /** The tasks set aside because the parking lot is full, in all queues (a copy). */
  public Set<UUID> heldIds() {
    Set<UUID> held = new java.util.HashSet<>();
    for (Channel channel : channels.values()) {
      held.addAll(channel.held);
    }
    return held;
  }

  /** Whether the task is set aside on its queue because the parking lot is full. */
  public boolean isHeld(UUID taskId) {
    for (Channel channel : channels.values()) {
      if (channel.held.contains(taskId)) {
        return true;
      }
    }
    return false;
  }

  /** Workers draining each queue now. */
  public Map<String, Integer> workers() {
    Map<String, Integer> workers = new java.util.LinkedHashMap<>();
    channels.forEach((name, channel) -> workers.put(name, channel.workers.get()));
    return workers;
  }

  /** Task ids waiting in each queue's channel, held ones included. */
  public Map<String, Integer> depths() {
    Map<String, Integer> depths = new java.util.LinkedHashMap<>();
    channels.forEach((name, channel) -> depths.put(name, channel.occupied()));
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
}
