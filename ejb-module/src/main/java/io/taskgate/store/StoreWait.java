package io.taskgate.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Lets a thread that waits for its writes to be committed do other work meanwhile: a worker whose
 * commit is held up by the database can still start a task whose slot has come, instead of leaving
 * it waiting for the commit to end.
 *
 * <p>The caller names the work it may do ({@link Helper}) around its own writes only ({@link
 * #helping}); {@link GroupCommitTaskStore} then waits for the commit through {@link #await}, which
 * runs the helper's work one piece at a time until the commit is done, and parks in between. Work
 * done while waiting does not help in turn: a write it makes waits plainly. Without a helper, or
 * for a write that goes straight to the database (a caller inside a transaction), waiting is plain.
 */
public final class StoreWait {
  /** What a thread may do while its writes are committed. */
  public interface Helper {
    /** Does one piece of work if there is one; whether there was. */
    boolean helpOnce();

    /**
     * The calling thread starts ({@code true}) or stops waiting for a commit: work that arrives
     * meanwhile should {@link LockSupport#unpark} it.
     */
    void waiting(boolean waiting);
  }

  /** The longest a waiting thread parks between two looks for work, in case a wake-up is missed. */
  static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private static final ThreadLocal<Helper> HELPER = new ThreadLocal<>();

  private StoreWait() {}

  /** Runs {@code writes} (calls to the store) with {@code helper} working while they wait. */
  public static <T> T helping(Helper helper, Supplier<T> writes) {
    Helper outer = HELPER.get();
    HELPER.set(helper);
    try {
      return writes.get();
    } finally {
      restore(outer);
    }
  }

  /**
   * Waits for {@code commit}, doing the calling thread's helper work meanwhile if it has a helper;
   * returns the result, or throws what the commit failed with (unwrapped when unchecked).
   */
  static <T> T await(CompletableFuture<T> commit) {
    Helper helper = HELPER.get();
    if (helper != null && !commit.isDone()) {
      Thread waiter = Thread.currentThread();
      commit.whenComplete((result, failure) -> LockSupport.unpark(waiter));
      HELPER.remove(); // what the helper runs waits plainly for its own writes
      helper.waiting(true);
      try {
        while (!commit.isDone()) {
          if (!helper.helpOnce() && !commit.isDone()) {
            LockSupport.parkNanos(commit, PARK_NANOS);
          }
        }
      } finally {
        helper.waiting(false);
        HELPER.set(helper);
      }
    }
    try {
      return commit.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }

  private static void restore(Helper outer) {
    if (outer == null) {
      HELPER.remove();
    } else {
      HELPER.set(outer);
    }
  }
}
