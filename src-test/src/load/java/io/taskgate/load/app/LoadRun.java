package io.taskgate.load.app;

import io.taskgate.api.QueueFullException;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskStatus;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskQuery;
import io.taskgate.store.TaskStore;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Dispatches the no-op tasks of one run from a few managed threads, as fast as the dispatcher
 * returns, and waits until the handler has seen every one stored COMPLETED. One run at a time.
 */
@ApplicationScoped
public class LoadRun {
  @Inject TaskDispatcher dispatcher;
  @Inject TaskStore store;
  @Inject TaskQueries queries;

  @Resource ManagedThreadFactory threadFactory;

  private final AtomicInteger runIds = new AtomicInteger();
  private volatile Run current;

  /** One run's bookkeeping: per task, when it was dispatched and when its handler started. */
  private static final class Run {
    final int id;
    final long[] dispatchedAt;
    final long[] startedAt;
    final long[] callNanos; // how long the dispatch call took, at the seq of its first task
    final CountDownLatch completed;
    final AtomicLong lastCompletedAt = new AtomicLong();
    final Set<String> workers = ConcurrentHashMap.newKeySet();

    Run(int id, int tasks) {
      this.id = id;
      dispatchedAt = new long[tasks];
      startedAt = new long[tasks];
      callNanos = new long[tasks];
      completed = new CountDownLatch(tasks);
    }
  }

  void started(NoopTask task) {
    Run run = current;
    if (run != null && run.id == task.run()) {
      run.startedAt[task.seq()] = System.nanoTime();
      run.workers.add(Thread.currentThread().getName());
    }
  }

  void completed(NoopTask task) {
    Run run = current;
    if (run != null && run.id == task.run()) {
      run.lastCompletedAt.accumulateAndGet(System.nanoTime(), Math::max);
      run.completed.countDown();
    }
  }

  /**
   * Dispatches {@code tasks} no-op tasks from {@code threads} threads and waits for them; with
   * {@code rate} above 0 the threads together dispatch at most that many a second, evenly spaced.
   */
  public synchronized LoadResult run(
      int tasks, int threads, int batch, int rate, int timeoutSeconds) throws InterruptedException {
    if (tasks < 1 || threads < 1 || threads > 64 || batch < 1) {
      throw new IllegalArgumentException(
          "tasks and batch must be at least 1 and threads 1 to 64, were "
              + tasks
              + ", "
              + batch
              + " and "
              + threads);
    }
    long storedBefore = storedCompleted();
    Run run = new Run(runIds.incrementAndGet(), tasks);
    current = run;
    AtomicInteger queueFull = new AtomicInteger();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> dispatchers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      Thread thread =
          threadFactory.newThread(
              () -> {
                try {
                  go.await();
                  long began = System.nanoTime();
                  long gapNanos = rate <= 0 ? 0 : 1_000_000_000L * threads * batch / rate;
                  long calls = 0;
                  List<NoopTask> chunk = new ArrayList<>(batch);
                  for (int seq = first; seq < tasks; seq += threads) {
                    chunk.add(new NoopTask(run.id, seq));
                    if (chunk.size() == batch || seq + threads >= tasks) {
                      if (gapNanos > 0) {
                        // this thread's calls, evenly spaced; the threads' offsets interleave them
                        long at = began + (calls++ * gapNanos) + gapNanos * first / threads;
                        for (long wait; (wait = at - System.nanoTime()) > 0; ) {
                          LockSupport.parkNanos(wait);
                        }
                      }
                      long now = System.nanoTime();
                      for (NoopTask task : chunk) {
                        run.dispatchedAt[task.seq()] = now;
                      }
                      try {
                        if (batch == 1) {
                          dispatcher.dispatch(chunk.get(0));
                        } else {
                          dispatcher.dispatchAll(chunk);
                        }
                      } catch (QueueFullException e) {
                        queueFull.incrementAndGet();
                      }
                      run.callNanos[chunk.get(0).seq()] = System.nanoTime() - now;
                      chunk.clear();
                    }
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                  failure.compareAndSet(null, e);
                }
              });
      dispatchers.add(thread);
      thread.start();
    }
    long start = System.nanoTime();
    go.countDown();
    for (Thread thread : dispatchers) {
      thread.join();
    }
    long dispatched = System.nanoTime();
    if (failure.get() != null) {
      throw failure.get();
    }
    boolean all = run.completed.await(timeoutSeconds, TimeUnit.SECONDS);
    long end = all ? run.lastCompletedAt.get() : System.nanoTime();
    int completed = (int) (tasks - run.completed.getCount());
    current = null;

    long[] latencies = new long[tasks];
    int n = 0;
    for (int i = 0; i < tasks; i++) {
      if (run.startedAt[i] != 0) {
        latencies[n++] = run.startedAt[i] - run.dispatchedAt[i];
      }
    }
    Arrays.sort(latencies, 0, n);
    long[] calls = Arrays.stream(run.callNanos).filter(c -> c > 0).sorted().toArray();
    double total = (end - start) / 1e9;
    return new LoadResult(
        tasks,
        threads,
        completed,
        storedCompleted() - storedBefore,
        queueFull.get(),
        (dispatched - start) / 1e9,
        total,
        completed / total,
        percentile(latencies, n, 0.50) / 1_000,
        percentile(latencies, n, 0.99) / 1_000,
        n == 0 ? 0 : latencies[n - 1] / 1_000,
        run.workers.size(),
        percentile(calls, calls.length, 0.50) / 1_000,
        percentile(calls, calls.length, 0.99) / 1_000);
  }

  private long storedCompleted() {
    return queries
        .query(
            new TaskQuery(
                Optional.of(TaskStatus.COMPLETED),
                Optional.of(NoopTask.class.getName()),
                Optional.empty(),
                0,
                1))
        .total();
  }

  private static long percentile(long[] sorted, int n, double p) {
    return n == 0 ? 0 : sorted[Math.min(n - 1, (int) Math.ceil(p * n) - 1)];
  }
}
