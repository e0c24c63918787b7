package io.taskgate.engine.queue;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One queue's channel: its bounded lane of tasks, the due lane (parked tasks whose slot has come)
 * and the start lane (tasks claimed ahead whose slot has come), the tasks held while the parking
 * lot is full, and the workers that drain it on the managed executor (see {@link TaskQueues}).
 */
final class Channel implements TaskQueues.StartLane {
  private static final Logger LOG = Logger.getLogger(Channel.class.getName());

  private final TaskQueues queues;
  final String name;

  /** Unbounded itself: {@link #occupied} keeps tasks plus held tasks within the capacity. */
  final LinkedBlockingQueue<UUID> tasks = new LinkedBlockingQueue<>();

  /** Tasks whose rate-limit slot has come: taken first, outside the capacity. */
  final LinkedBlockingQueue<UUID> due = new LinkedBlockingQueue<>();

  /** Tasks claimed ahead whose slot has come: taken before the due lane, outside the capacity. */
  final LinkedBlockingQueue<UUID> starts = new LinkedBlockingQueue<>();

  /** Workers of this queue waiting for the store right now. */
  private final Set<Thread> waitingForStore = ConcurrentHashMap.newKeySet();

  final Deque<UUID> held = new ConcurrentLinkedDeque<>();
  final int capacity;
  final int parallelism;
  final AtomicInteger workers = new AtomicInteger();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private int occupied; // tasks + held, guarded by lock
  private boolean refused; // an offer found no room since the last room signal, guarded by lock

  /** Lingering workers wait here for work. */
  private final ReentrantLock idleLock = new ReentrantLock();

  private final Condition work = idleLock.newCondition();
  private int idle; // lingering workers nobody has woken yet, guarded by idleLock
  private int wakeups; // wake-ups not yet taken by a lingering worker, guarded by idleLock

  Channel(TaskQueues queues, String name, QueueSettings.Sizes sizes) {
    this.queues = queues;
    this.name = name;
    this.capacity = sizes.capacity();
    this.parallelism = sizes.parallelism();
  }

  /** Adds a task, waiting up to {@code nanos} for room. */
  boolean offer(UUID taskId, long nanos) throws InterruptedException {
    long left = nanos;
    lock.lock();
    try {
      while (occupied >= capacity) {
        if (left <= 0) {
          refused = true;
          return false;
        }
        left = room.awaitNanos(left);
      }
      occupied++;
    } finally {
      lock.unlock();
    }
    tasks.add(taskId);
    return true;
  }

  int occupied() {
    lock.lock();
    try {
      return occupied;
    } finally {
      lock.unlock();
    }
  }

  /** {@code count} tasks left the queue for a worker (or were dropped): room for as many. */
  void taken(int count) {
    boolean signal = false;
    lock.lock();
    try {
      occupied -= count;
      room.signalAll();
      if (refused && occupied <= capacity / 2) {
        refused = false;
        signal = true;
      }
    } finally {
      lock.unlock();
    }
    if (signal) {
      try {
        queues.roomListener.run();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "Taskgate could not look for tasks to fill queue " + name, e);
      }
    }
  }

  public void hold(UUID taskId) {
    lock.lock();
    try {
      occupied++;
    } finally {
      lock.unlock();
    }
    held.add(taskId);
  }

  int unhold(int max) {
    int moved = 0;
    UUID taskId;
    while (moved < max && (taskId = held.poll()) != null) {
      tasks.add(taskId); // still counted in occupied
      moved++;
    }
    if (moved > 0) {
      startWorkers();
    }
    return moved;
  }

  boolean drop(UUID taskId) {
    if (held.remove(taskId)) {
      taken(1);
      return true;
    }
    return false;
  }

  @Override
  public UUID pollStart(Predicate<UUID> takes) {
    for (UUID taskId : starts) {
      if (takes.test(taskId) && starts.remove(taskId)) {
        return taskId;
      }
    }
    return null;
  }

  @Override
  public void waitingForStore(boolean waiting) {
    if (waiting) {
      waitingForStore.add(Thread.currentThread());
    } else {
      waitingForStore.remove(Thread.currentThread());
    }
  }

  @Override
  public void toDueLane(UUID taskId) {
    due.add(taskId);
    startWorkers();
  }

  void wakeWaitingForStore() {
    waitingForStore.forEach(LockSupport::unpark);
  }

  void startWorkers() {
    if (!queues.consuming) {
      return;
    }
    if (wakeIdle()) {
      return;
    }
    while (!tasks.isEmpty() || !due.isEmpty() || !starts.isEmpty()) {
      int n = workers.get();
      if (n >= parallelism) {
        return;
      }
      if (workers.compareAndSet(n, n + 1)) {
        queues.executor.execute(this::drain);
      }
    }
  }

  /** Wakes one lingering worker, if there is one nobody has woken yet; whether there was. */
  private boolean wakeIdle() {
    idleLock.lock();
    try {
      if (idle == 0) {
        return false;
      }
      idle--;
      wakeups++;
      work.signal();
      return true;
    } finally {
      idleLock.unlock();
    }
  }

  void wakeAll() {
    idleLock.lock();
    try {
      work.signalAll();
    } finally {
      idleLock.unlock();
    }
  }

  /**
   * The channel is empty: waits up to {@value #TaskQueues.LINGER_MILLIS} ms for work. Returns true
   * when there is work again (this worker goes on), false when it should end.
   */
  private boolean linger() {
    idleLock.lock();
    try {
      if (!tasks.isEmpty() || !due.isEmpty() || !starts.isEmpty()) {
        return true; // enqueued after this worker looked: it was not woken, nor needed to be
      }
      idle++;
      long left = TimeUnit.MILLISECONDS.toNanos(TaskQueues.LINGER_MILLIS);
      while (true) {
        if (wakeups > 0) {
          wakeups--; // whoever woke us counted us out of idle
          return true;
        }
        if (queues.closed || left <= 0) {
          idle--;
          return false;
        }
        left = work.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      if (wakeups > 0) {
        wakeups--; // leaving: one fewer waiting worker, woken or not
      } else {
        idle--;
      }
      return false;
    } finally {
      idleLock.unlock();
    }
  }

  /** Recent average nanoseconds per task (exponentially weighted); starts as "slow". */
  private volatile long nanosPerTask = TimeUnit.MILLISECONDS.toNanos(TaskQueues.BATCH_MILLIS);

  /** Tasks the calling worker ran beyond its batch ({@link #ranMore}), during its batch. */
  private static final ThreadLocal<int[]> MORE = ThreadLocal.withInitial(() -> new int[1]);

  @Override
  public void ranMore(int tasks) {
    MORE.get()[0] += tasks;
  }

  /** Runs a batch, keeps the queue's time per task, and clears the batch. */
  private void runBatch(List<UUID> batch) {
    int[] more = MORE.get();
    more[0] = 0;
    long start = queues.ticker.nanos();
    try {
      queues.runner.run(batch, this);
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, "Taskgate worker failed on task(s) " + batch, e);
    }
    long perTask = (queues.ticker.nanos() - start) / (batch.size() + more[0]);
    nanosPerTask = (nanosPerTask * 7 + perTask) / 8;
    batch.clear();
  }

  private void drain() {
    try {
      List<UUID> batch = new ArrayList<>(TaskQueues.MAX_BATCH);
      int dueStreak = 0;
      while (true) {
        UUID first = starts.poll();
        if (first != null) {
          batch.add(first);
          starts.drainTo(batch, TaskQueues.MAX_BATCH - 1);
          runBatch(batch);
          continue;
        }
        first = dueStreak < TaskQueues.DUE_STREAK ? due.poll() : null;
        boolean fromDue = first != null;
        if (first == null) {
          first = tasks.poll();
        }
        if (first == null) {
          first = due.poll();
          fromDue = first != null;
        }
        if (first == null) {
          if (linger()) {
            continue;
          }
          break;
        }
        dueStreak = fromDue ? dueStreak + 1 : 0;
        LinkedBlockingQueue<UUID> lane = fromDue ? due : tasks;
        batch.add(first);
        int take = TaskQueues.batchSize(nanosPerTask, lane.size(), parallelism) - 1;
        if (take > 0) {
          lane.drainTo(batch, take);
        }
        if (!fromDue) {
          taken(batch.size());
        }
        runBatch(batch);
      }
    } finally {
      workers.decrementAndGet();
      startWorkers();
    }
  }
}
