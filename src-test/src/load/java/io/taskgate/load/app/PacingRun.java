package io.taskgate.load.app;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.engine.run.RunningTasks;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.engine.throttle.ratelimit.StartSpacingGuard;
import io.taskgate.it.Conformance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The pacing run: how precisely parked tasks start at their slots, whether the starts conform to
 * the policy, and what a hot key holding thousands of parked tasks does to other keys.
 *
 * <ol>
 *   <li>Baseline: {@code others} tasks, each of a new key (so each runs at once), dispatched one
 *       every {@code gapMicros} from one thread: dispatch-to-start p50/p99.
 *   <li>The hot key: {@code parked} tasks of one key, stored with {@code dispatchAll}; all but the
 *       burst park until their slots, 5 ms apart. With {@code releaseMillis} 0 they are due at
 *       once, so the first of them pace while the rest are still being stored (two saturated cores:
 *       the storing competes with the pacing); otherwise they are all due {@code releaseMillis}
 *       after the first was stored, and come due together, like a batch scheduled for a given time.
 *   <li>The same as 1 with new keys while the hot key holds its parked tasks.
 *   <li>Waits for every hot task; for each parked one: start − reserved slot (the slot the engine
 *       hands the handler in {@code TaskContext.throttledUntil}), and GCRA conformance of all the
 *       hot key's start times to its policy.
 * </ol>
 */
@ApplicationScoped
public class PacingRun {
  @Inject TaskDispatcher dispatcher;
  @Inject RateLimitReads rateLimits;
  @Inject StartSpacingGuard spacing;
  @Inject RunningTasks running;

  private final AtomicInteger runIds = new AtomicInteger(1000);

  /** Not started yet (in the arrays below). */
  private static final long NONE = Long.MIN_VALUE;

  /**
   * The hot key of the current run: per task (by {@code seq}) its reserved slot and its start, in
   * epoch nanoseconds ({@link #NONE}: no slot, not started). Primitive arrays, made once per run,
   * so that the run's own records add next to nothing to what the collector has to copy.
   */
  private record Hot(
      String key, AtomicLongArray slots, AtomicLongArray starts, AtomicInteger started) {
    Hot(String key, int tasks) {
      this(key, filled(tasks), filled(tasks), new AtomicInteger());
    }
  }

  /** The other keys' tasks of one phase (key {@code prefix + seq}): start, System.nanoTime. */
  private record Others(String prefix, AtomicLongArray starts) {}

  private volatile Hot hot = new Hot("", 0);
  private volatile Others others = new Others("", filled(0));

  private static AtomicLongArray filled(int length) {
    AtomicLongArray array = new AtomicLongArray(length);
    for (int i = 0; i < length; i++) {
      array.set(i, NONE);
    }
    return array;
  }

  /** The delay-variation allowance of the second conformance figure: 5 ms, one slot interval. */
  static final long CDVT_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  void started(PacedTask task, Instant throttledUntil) {
    long nanos = System.nanoTime();
    Instant now = Instant.now();
    Hot hot = this.hot;
    Others others = this.others;
    if (task.key().equals(hot.key()) && task.seq() < hot.starts().length()) {
      hot.slots().set(task.seq(), throttledUntil == null ? NONE : epochNanos(throttledUntil));
      hot.starts().set(task.seq(), epochNanos(now));
      hot.started().incrementAndGet();
    } else if (task.key().startsWith(others.prefix()) && task.seq() < others.starts().length()) {
      others.starts().set(task.seq(), nanos);
    }
  }

  /** Runs the four steps; the figures as a JSON-B record. */
  public synchronized PacingResult run(int parked, int others, int gapMicros, long releaseMillis)
      throws InterruptedException {
    int run = runIds.incrementAndGet();
    Latency baseline = others(run, "base", others, gapMicros);

    String hotKey = "hot-" + run;
    Hot hot = new Hot(hotKey, parked);
    this.hot = hot;
    AtomicInteger hotStarted = hot.started();
    List<PacedTask> batch = new ArrayList<>(500);
    Instant release = Instant.now().plusMillis(releaseMillis);
    DispatchOptions when =
        releaseMillis > 0 ? DispatchOptions.now().at(release) : DispatchOptions.now();
    long[] gcBefore = gc();
    long spacedBefore = spacing.spacedStarts();
    long helpedBefore = running.startsWhileWaiting();
    for (int seq = 0; seq < parked; seq++) {
      batch.add(new PacedTask(run, seq, hotKey));
      if (batch.size() == 500 || seq == parked - 1) {
        dispatcher.dispatchAll(batch, when);
        batch.clear();
      }
    }
    if (Instant.now().isAfter(release) && releaseMillis > 0) {
      throw new IllegalStateException(
          "storing the hot tasks took longer than releaseMillis=" + releaseMillis);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60) + releaseMillis * 1_000_000;
    // the gating's progress, sampled every millisecond until every hot task is parked or started
    long[] progress = new long[3 * GATING_SAMPLES];
    int samples = 0;
    long sampleFrom = epochNanos(release) - 50_000_000L;
    int gated = 0;
    while (System.nanoTime() < deadline) {
      int parkedNow = rateLimits.parkedCount();
      int startedNow = hotStarted.get();
      gated = parkedNow + startedNow;
      if (gated >= parked) {
        break;
      }
      long now = epochNanos(Instant.now());
      if (samples < GATING_SAMPLES && now >= sampleFrom) {
        progress[3 * samples] = now;
        progress[3 * samples + 1] = parkedNow;
        progress[3 * samples + 2] = startedNow;
        samples++;
        LockSupport.parkNanos(1_000_000);
      } else {
        Thread.sleep(20);
      }
    }
    writeGatingCsv(hot.key(), progress, samples, gated);
    int parkedBefore = rateLimits.parkedCount();
    long allParked = epochNanos(Instant.now());
    Latency withHot = others(run, "with-hot", others, gapMicros);
    int parkedAfter = rateLimits.parkedCount();

    long slotsNanos =
        TimeUnit.SECONDS.toNanos(1) / PacedHandler.PERMITS * (long) parked
            + TimeUnit.SECONDS.toNanos(60);
    deadline = System.nanoTime() + slotsNanos;
    while (hotStarted.get() < parked && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    int hotDone = hotStarted.get();
    long[] gcAfter = gc();
    long spaced = spacing.spacedStarts() - spacedBefore;
    long helped = running.startsWhileWaiting() - helpedBefore;

    List<Long> lateness = new ArrayList<>();
    List<Long> latenessOnceParked = new ArrayList<>();
    long early = 0;
    long[] startNanos = new long[hotDone];
    int n = 0;
    for (int seq = 0; seq < parked; seq++) {
      long start = hot.starts().get(seq);
      if (start == NONE) {
        continue;
      }
      startNanos[n++] = start;
      long slot = hot.slots().get(seq);
      if (slot != NONE) {
        long late = start - slot;
        if (late < 0) {
          early++;
        }
        lateness.add(late);
        if (slot >= allParked) {
          latenessOnceParked.add(late);
        }
      }
    }
    writeCsv(hot, allParked);
    long[] late = lateness.stream().mapToLong(Long::longValue).sorted().toArray();
    long[] lateOnceParked =
        latenessOnceParked.stream().mapToLong(Long::longValue).sorted().toArray();
    long[] sortedStarts = Arrays.copyOf(startNanos, n);
    Arrays.sort(sortedStarts);
    long[] gcra = gcraViolations(sortedStarts, 0);
    long[] gcraCdvt = gcraViolations(sortedStarts, CDVT_NANOS);
    int busiestSecond = busiestWindow(sortedStarts, TimeUnit.SECONDS.toNanos(1));
    return new PacingResult(
        parked,
        releaseMillis,
        hotDone,
        late.length,
        micros(percentile(late, 50)),
        micros(percentile(late, 99)),
        micros(late.length == 0 ? 0 : late[late.length - 1]),
        lateOnceParked.length,
        micros(percentile(lateOnceParked, 99)),
        early,
        gcra[0],
        micros(gcra[1]),
        gcraCdvt[0],
        busiestSecond,
        PacedHandler.BURST + PacedHandler.PERMITS,
        parkedBefore,
        parkedAfter,
        others,
        baseline.p50Micros,
        baseline.p99Micros,
        withHot.p50Micros,
        withHot.p99Micros,
        gcAfter[0] - gcBefore[0],
        gcAfter[1] - gcBefore[1],
        spaced,
        helped);
  }

  /** Collections so far and their total milliseconds, over all the JVM's collectors. */
  private static long[] gc() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, collector.getCollectionCount());
      millis += Math.max(0, collector.getCollectionTime());
    }
    return new long[] {count, millis};
  }

  /**
   * The conformance check of the tests ({@link Conformance}) over the observed starts, against the
   * policy's emission interval and burst tolerance, starting full at the first start, widened by
   * {@code toleranceNanos} (the CDVT of the ITU test: how much the path between the limiter and the
   * measuring point may bunch starts up). Returns the non-conforming starts and the most any of
   * them came too early, in nanoseconds.
   */
  static long[] gcraViolations(long[] startEpochNanos, long toleranceNanos) {
    Conformance.Run run = Conformance.run(Duration.ofNanos(toleranceNanos));
    Conformance.Key key =
        run.key(
            "hot",
            Conformance.Policy.of(PacedHandler.PERMITS, Duration.ofSeconds(1), PacedHandler.BURST));
    for (long t : startEpochNanos) {
      key.started(new Conformance.Start(Instant.ofEpochSecond(0, t), "", ""));
    }
    List<Conformance.Violation> violations = run.violations();
    long worst = violations.stream().mapToLong(v -> v.early().toNanos()).max().orElse(0);
    return new long[] {violations.size(), worst};
  }

  /** The most starts in any window of {@code window} nanoseconds (starts sorted). */
  static int busiestWindow(long[] sorted, long window) {
    int most = 0;
    int from = 0;
    for (int to = 0; to < sorted.length; to++) {
      while (sorted[to] - sorted[from] >= window) {
        from++;
      }
      most = Math.max(most, to - from + 1);
    }
    return most;
  }

  private Latency others(int run, String phase, int count, int gapMicros)
      throws InterruptedException {
    long[] dispatched = new long[count];
    String prefix = "other-" + run + "-" + phase + "-";
    Others others = new Others(prefix, filled(count));
    this.others = others;
    long next = System.nanoTime();
    for (int i = 0; i < count; i++) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
      dispatched[i] = System.nanoTime();
      dispatcher.dispatch(new PacedTask(run, i, prefix + i));
      next += TimeUnit.MICROSECONDS.toNanos(gapMicros);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    long[] latencies = new long[count];
    for (int i = 0; i < count; i++) {
      long start;
      while ((start = others.starts().get(i)) == NONE) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("task " + prefix + i + " did not start within 60 s");
        }
        Thread.sleep(5);
      }
      latencies[i] = start - dispatched[i];
    }
    Arrays.sort(latencies);
    return new Latency(micros(percentile(latencies, 50)), micros(percentile(latencies, 99)));
  }

  /**
   * Every hot task's slot and start (epoch microseconds) to {@code taskgate-pacing-<key>-<pid>.csv}
   * in the temporary directory, for a closer look at when the late ones ran (the process id keeps
   * each boot's files apart: run numbers restart with every boot).
   */
  private static void writeCsv(Hot hot, long allParked) {
    StringBuilder csv = new StringBuilder("seq,slot_us,start_us,all_parked_us\n");
    for (int seq = 0; seq < hot.starts().length(); seq++) {
      long start = hot.starts().get(seq);
      if (start != NONE) {
        long slot = hot.slots().get(seq);
        csv.append(seq)
            .append(',')
            .append(slot == NONE ? "" : micros(slot))
            .append(',')
            .append(micros(start))
            .append(',')
            .append(micros(allParked))
            .append('\n');
      }
    }
    writeTemp("taskgate-pacing-" + hot.key() + "-" + ProcessHandle.current().pid() + ".csv", csv);
  }

  /** Writes {@code text} to the file {@code name} in the temporary directory. */
  private static void writeTemp(String name, CharSequence text) {
    try {
      java.nio.file.Files.writeString(
          java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), name), text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** At most this many samples of the gating's progress (one per millisecond: a minute). */
  private static final int GATING_SAMPLES = 60_000;

  /**
   * The gating's progress ({@code epoch_us,parked,started} per millisecond, from 50 ms before the
   * release) to {@code taskgate-pacing-<key>-<pid>-gating.csv}: when the gate decided on the hot
   * tasks, next to when their slots came.
   */
  private static void writeGatingCsv(String key, long[] progress, int samples, int gated) {
    StringBuilder csv = new StringBuilder("epoch_us,parked,started\n");
    for (int i = 0; i < samples; i++) {
      csv.append(micros(progress[3 * i]))
          .append(',')
          .append(progress[3 * i + 1])
          .append(',')
          .append(progress[3 * i + 2])
          .append('\n');
    }
    csv.append(micros(epochNanos(Instant.now()))).append(",,").append(gated).append('\n');
    writeTemp("taskgate-pacing-" + key + "-" + ProcessHandle.current().pid() + "-gating.csv", csv);
  }

  private static long percentile(long[] sorted, int p) {
    if (sorted.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static long epochNanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  private static long micros(long nanos) {
    return nanos / 1000;
  }

  private record Latency(long p50Micros, long p99Micros) {}
}
