package io.taskgate.load.app;

import io.taskgate.api.Concurrency;
import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
import io.taskgate.api.Semaphore;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.inject.Inject;

/**
 * The throttler benchmark's tasks ({@link ThrottleRun}): each works {@code workMicros} (spinning,
 * so that the measure is the engine's and not the scheduler's sleep) and reports its start and end.
 * The queues are {@link LoadConfigSource}'s: {@code load-eight} (8 workers) and {@code load-four}
 * (4).
 */
public final class ThrottledLoadTasks {
  private ThrottledLoadTasks() {}

  /** Behind one mutex: one at a time, on 8 workers. */
  public record OneAtATime(int run, int seq, int workMicros) implements Task {}

  /** Behind a semaphore of 4, on 8 workers. */
  public record FourAtATime(int run, int seq, int workMicros) implements Task {}

  /** Two keys, at most two running per key, on 8 workers. */
  public record TwoPerKey(int run, int seq, int key, int workMicros) implements Task {}

  /** No throttle, on 4 workers. */
  public record Plain(int run, int seq, int workMicros) implements Task {}

  /** Behind a semaphore that never binds (1,000), on 4 workers: the cost of one throttle. */
  public record Wide(int run, int seq, int workMicros) implements Task {}

  abstract static class Timed<T extends Task> implements Handler<T> {
    @Inject ThrottleRun load;

    abstract int run(T task);

    abstract int seq(T task);

    abstract int workMicros(T task);

    @Override
    public void handle(T task, TaskContext context) {
      long start = System.nanoTime();
      long until = start + workMicros(task) * 1_000L;
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      load.ran(run(task), seq(task), start, System.nanoTime());
    }
  }

  @TaskHandler(queue = "load-eight")
  @Mutex("load-one")
  public static class OneAtATimeHandler extends Timed<OneAtATime> {
    @Override
    int run(OneAtATime t) {
      return t.run();
    }

    @Override
    int seq(OneAtATime t) {
      return t.seq();
    }

    @Override
    int workMicros(OneAtATime t) {
      return t.workMicros();
    }
  }

  @TaskHandler(queue = "load-eight")
  @Semaphore("load-four")
  public static class FourAtATimeHandler extends Timed<FourAtATime> {
    @Override
    int run(FourAtATime t) {
      return t.run();
    }

    @Override
    int seq(FourAtATime t) {
      return t.seq();
    }

    @Override
    int workMicros(FourAtATime t) {
      return t.workMicros();
    }
  }

  @TaskHandler(queue = "load-eight")
  @Concurrency(limit = 2, key = "key-{key}")
  public static class TwoPerKeyHandler extends Timed<TwoPerKey> {
    @Override
    int run(TwoPerKey t) {
      return t.run();
    }

    @Override
    int seq(TwoPerKey t) {
      return t.seq();
    }

    @Override
    int workMicros(TwoPerKey t) {
      return t.workMicros();
    }
  }

  @TaskHandler(queue = "load-four")
  public static class PlainHandler extends Timed<Plain> {
    @Override
    int run(Plain t) {
      return t.run();
    }

    @Override
    int seq(Plain t) {
      return t.seq();
    }

    @Override
    int workMicros(Plain t) {
      return t.workMicros();
    }
  }

  @TaskHandler(queue = "load-four")
  @Semaphore("load-wide")
  public static class WideHandler extends Timed<Wide> {
    @Override
    int run(Wide t) {
      return t.run();
    }

    @Override
    int seq(Wide t) {
      return t.seq();
    }

    @Override
    int workMicros(Wide t) {
      return t.workMicros();
    }
  }
}
