package io.taskgate.bench;

import io.taskgate.bench.KeyedLimiters.KeyedLimiter;
import io.taskgate.core.ratelimit.EpochNanos;
import java.time.Instant;
import java.time.InstantSource;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of one keyed admission call (Taskgate's {@code reserve}, the peers' try-acquire) over
 * {@code keys} distinct keys, visited in a random order fixed per trial. Every key is touched once
 * in setup, so the measurement sees a steady state, not key creation. Threads: {@code -t 1} and
 * {@code -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
public class KeyedLimiterBenchmark {
  private static final int ORDER_SIZE = 1 << 20;

  @Param({"1", "10000", "1000000"})
  int keys;

  @Param({
    "taskgate",
    "taskgate-try-acquire",
    "bucket4j",
    "resilience4j",
    "guava",
    "taskgate-limited",
    "smallrye",
    "taskgate-supplied",
    "bucket4j-supplied"
  })
  String limiter;

  KeyedLimiter impl;
  String[] keyNames;
  int[] order;

  @Setup(Level.Trial)
  public void setUp() {
    impl = KeyedLimiters.create(limiter, Math.max(keys, 16));
    keyNames = new String[keys];
    for (int i = 0; i < keys; i++) {
      keyNames[i] = "tenant-" + i;
      impl.tryAcquire(keyNames[i], null, EpochNanos.of(Instant.now()));
    }
    SplittableRandom random = new SplittableRandom(42);
    order = new int[ORDER_SIZE];
    for (int i = 0; i < ORDER_SIZE; i++) {
      order[i] = random.nextInt(keys);
    }
  }

  /**
   * Each thread walks the shared random order from its own starting point, and keeps the time it
   * hands to the "-supplied" variants: read from the system clock once every {@value
   * #REFRESH_EVERY} calls, as an engine reads it once for a batch of dequeued tasks.
   */
  @State(Scope.Thread)
  public static class Cursor {
    static final int REFRESH_EVERY = 64;
    final InstantSource clock = InstantSource.system();
    final Object taskId = new Object();
    int next;
    long[] now;

    @Setup(Level.Trial)
    public void setUp() {
      next = new SplittableRandom().nextInt(ORDER_SIZE);
      now = KeyedLimiters.SUPPLIED.get();
      now[KeyedLimiters.CELL] = EpochNanos.of(clock.instant());
    }

    long now(int i) {
      if ((i & (REFRESH_EVERY - 1)) == 0) {
        now[KeyedLimiters.CELL] = EpochNanos.of(clock.instant());
      }
      return now[KeyedLimiters.CELL];
    }
  }

  @Benchmark
  public boolean acquire(Cursor cursor) {
    int i = cursor.next;
    cursor.next = (i + 1) & (ORDER_SIZE - 1);
    return impl.tryAcquire(keyNames[order[i]], cursor.taskId, cursor.now(i));
  }
}
