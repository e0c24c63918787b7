package io.taskgate.load.app;

import io.taskgate.api.Task;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.ThrottlingManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * The job throttlers under load, one measurement after the other, each {@code tasks} tasks of
 * {@code workMicros} dispatched in batches of 100:
 *
 * <ul>
 *   <li><b>wake-up</b>: behind one mutex on 8 workers; per task after the first to start, the time
 *       from the previous task's end (its handler returning; the release follows) to its start;
 *   <li><b>concurrency(2) per key</b>: two keys, at most two running per key, on 8 workers; per
 *       task after its key's first two to start, the time from the latest end of its key's tasks
 *       before it started to its start; and the most of one key that ran at once;
 *   <li><b>semaphore(4)</b> on 8 workers vs <b>plain</b> on 4 workers: tasks/s, first dispatch to
 *       last end;
 *   <li><b>one throttle</b> (a semaphore of 1,000 that never binds) vs <b>none</b>, both on 4
 *       workers: tasks/s, and the cost per task, {@code 1/throttled − 1/plain}.
 * </ul>
 */
@ApplicationScoped
public class ThrottleRun {
  /** The keys of the concurrency measurement. */
  private static final int KEYS = 2;

  @Inject TaskDispatcher dispatcher;
  @Inject ThrottlingManager throttling;

  private volatile int runId;
  private volatile long[] starts;
  private volatile long[] ends;
  private volatile CountDownLatch done;
  private int runs;

  void ran(int run, int seq, long start, long end) {
    if (run == runId) {
      starts[seq] = start;
      ends[seq] = end;
      done.countDown();
    }
  }

  /** All measurements; keys and values as the benchmark table shows them. */
  public synchronized Map<String, Object> run(int tasks, int workMicros)
      throws InterruptedException {
    throttling.addOrUpdateSemaphore("load-four", 4);
    throttling.addOrUpdateSemaphore("load-wide", 1_000);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("tasks", tasks);
    result.put("workMicros", workMicros);
    long[] wake = measure(tasks, seq -> new ThrottledLoadTasks.OneAtATime(runId, seq, workMicros));
    long[] gaps = gaps();
    result.put("mutexTasksPerSecond", perSecond(tasks, wake));
    result.put("wakeP50Micros", percentile(gaps, 50) / 1_000);
    result.put("wakeP99Micros", percentile(gaps, 99) / 1_000);
    result.put("wakeMaxMicros", gaps.length == 0 ? 0 : gaps[gaps.length - 1] / 1_000);
    long[] perKey =
        measure(tasks, seq -> new ThrottledLoadTasks.TwoPerKey(runId, seq, seq % KEYS, workMicros));
    long[] keyGaps = keyGaps();
    result.put("concurrencyTasksPerSecond", perSecond(tasks, perKey));
    result.put("concurrencyWakeP50Micros", percentile(keyGaps, 50) / 1_000);
    result.put("concurrencyWakeP99Micros", percentile(keyGaps, 99) / 1_000);
    int mostOfAKey = 0;
    for (int key = 0; key < KEYS; key++) {
      int k = key;
      mostOfAKey = Math.max(mostOfAKey, mostAtOnce(seq -> seq % KEYS == k));
    }
    result.put("concurrencyMostPerKey", mostOfAKey);
    double plain4 =
        perSecond(
            tasks, measure(tasks, seq -> new ThrottledLoadTasks.Plain(runId, seq, workMicros)));
    double semaphore4 =
        perSecond(
            tasks,
            measure(tasks, seq -> new ThrottledLoadTasks.FourAtATime(runId, seq, workMicros)));
    result.put("semaphoreMostAtOnce", mostAtOnce(seq -> true));
    double wide =
        perSecond(
            tasks, measure(tasks, seq -> new ThrottledLoadTasks.Wide(runId, seq, workMicros)));
    double plainAgain =
        perSecond(
            tasks, measure(tasks, seq -> new ThrottledLoadTasks.Plain(runId, seq, workMicros)));
    result.put("plain4TasksPerSecond", plain4);
    result.put("semaphore4TasksPerSecond", semaphore4);
    result.put("semaphoreRatio", semaphore4 / plain4);
    result.put("oneThrottleTasksPerSecond", wide);
    result.put("noThrottleTasksPerSecond", plainAgain);
    result.put("throttleRatio", wide / plainAgain);
    result.put("costPerTaskMicros", (1e6 / wide) - (1e6 / plainAgain));
    return result;
  }

  /** Dispatches {@code tasks} tasks and waits for them; returns {first dispatch, last end}. */
  private long[] measure(int tasks, IntFunction<Task> task) throws InterruptedException {
    runId = ++runs * 1000 + 7;
    starts = new long[tasks];
    ends = new long[tasks];
    done = new CountDownLatch(tasks);
    long first = System.nanoTime();
    List<Task> batch = new ArrayList<>(100);
    for (int seq = 0; seq < tasks; seq++) {
      batch.add(task.apply(seq));
      if (batch.size() == 100 || seq == tasks - 1) {
        dispatcher.dispatchAll(batch);
        batch = new ArrayList<>(100);
      }
    }
    if (!done.await(10, TimeUnit.MINUTES)) {
      throw new IllegalStateException(done.getCount() + " tasks did not run in 10 minutes");
    }
    long last = Arrays.stream(ends).max().orElse(first);
    return new long[] {first, last};
  }

  /**
   * The most tasks of the last measurement ({@code seq}s that {@code of} accepts) that ran at once.
   */
  private int mostAtOnce(IntPredicate of) {
    List<long[]> list = new ArrayList<>();
    for (int i = 0; i < starts.length; i++) {
      if (of.test(i)) {
        list.add(new long[] {starts[i], 1});
        list.add(new long[] {ends[i], -1});
      }
    }
    long[][] edges = list.toArray(new long[0][]);
    Arrays.sort(
        edges, (x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
    int now = 0;
    int most = 0;
    for (long[] edge : edges) {
      now += (int) edge[1];
      most = Math.max(most, now);
    }
    return most;
  }

  /** Per task after the first to start: its start − the end of the task that ran before it. */
  private long[] gaps() {
    int n = starts.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(starts[a], starts[b]));
    long[] gaps = new long[n - 1];
    for (int i = 1; i < n; i++) {
      gaps[i - 1] = Math.max(0, starts[order[i]] - ends[order[i - 1]]);
    }
    Arrays.sort(gaps);
    return gaps;
  }

  /**
   * Per task of the last measurement after its key's first {@code 2} to start: its start − the
   * latest end, before it, of a task of its key (the release that let it in).
   */
  private long[] keyGaps() {
    List<Long> gaps = new ArrayList<>();
    for (int key = 0; key < KEYS; key++) {
      List<Integer> ofKey = new ArrayList<>();
      for (int seq = key; seq < starts.length; seq += KEYS) {
        ofKey.add(seq);
      }
      ofKey.sort((a, b) -> Long.compare(starts[a], starts[b]));
      for (int i = 2; i < ofKey.size(); i++) {
        long start = starts[ofKey.get(i)];
        long latestEnd = Long.MIN_VALUE;
        for (int j = 0; j < i; j++) {
          long end = ends[ofKey.get(j)];
          if (end <= start && end > latestEnd) {
            latestEnd = end;
          }
        }
        gaps.add(latestEnd == Long.MIN_VALUE ? 0 : start - latestEnd);
      }
    }
    return gaps.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  private static double perSecond(int tasks, long[] span) {
    return tasks / ((span[1] - span[0]) / 1e9);
  }

  private static long percentile(long[] sorted, int p) {
    if (sorted.length == 0) {
      return 0;
    }
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }
}
