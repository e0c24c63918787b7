package io.taskgate.engine.cluster.grid;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Calls to the data grid, each on a thread of its own so that the caller waits for it at most a
 * budget; a call that outlives its budget still runs to its end.
 */
final class GridCalls {
  private final long budgetNanos;
  private final ExecutorService threads;

  GridCalls(Duration budget, String threadName) {
    this.budgetNanos = budget.toNanos();
    this.threads =
        Executors.newCachedThreadPool(
            r -> {
              Thread thread = new Thread(r, threadName);
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Runs {@code work}, waiting for its answer at most the budget. */
  <T> T call(Supplier<T> work) throws GridUnavailable {
    return await(submit(work), budgetNanos);
  }

  /** Starts {@code work} on a grid thread. */
  <T> CompletableFuture<T> submit(Supplier<T> work) throws GridUnavailable {
    try {
      return CompletableFuture.supplyAsync(work, threads);
    } catch (RuntimeException e) {
      throw new GridUnavailable(e.toString(), e);
    }
  }

  /** The answer of {@code stage}, waited for at most the budget. */
  <T> T await(CompletionStage<T> stage) throws GridUnavailable {
    return await(stage, budgetNanos);
  }

  /** The answer of {@code stage}, waited for at most {@code timeoutNanos}. */
  static <T> T await(CompletionStage<T> stage, long timeoutNanos) throws GridUnavailable {
    try {
      return stage.toCompletableFuture().get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new GridUnavailable("no answer within " + Duration.ofNanos(timeoutNanos), e);
    } catch (ExecutionException e) {
      throw new GridUnavailable(String.valueOf(e.getCause()), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new GridUnavailable("interrupted", e);
    } catch (RuntimeException e) {
      throw new GridUnavailable(e.toString(), e);
    }
  }

  /** Stops the threads. */
  void close() {
    threads.shutdownNow();
  }
}
