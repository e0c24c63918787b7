package io.taskgate.engine.run;

import io.taskgate.store.CommitWait;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for a commit while doing a worker's other work ({@link Helper}) one piece at a time,
 * parking in between; work that arrives unparks the waiter. Work done while waiting does not help
 * in turn: a commit it waits for itself is waited for plainly. One per worker batch; not
 * thread-safe.
 */
final class HelpingWait implements CommitWait {
  /** What a thread may do while its writes are committed. */
  interface Helper {
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

  private final Helper helper;
  private boolean helping;

  HelpingWait(Helper helper) {
    this.helper = helper;
  }

  @Override
  public <T> T await(CompletableFuture<T> commit) {
    if (helping || commit.isDone()) {
      return CommitWait.join(commit); // work done while waiting waits plainly for its own writes
    }
    Thread waiter = Thread.currentThread();
    commit.whenComplete((result, failure) -> LockSupport.unpark(waiter));
    helping = true;
    helper.waiting(true);
    try {
      while (!commit.isDone()) {
        if (!helper.helpOnce() && !commit.isDone()) {
          LockSupport.parkNanos(commit, PARK_NANOS);
        }
      }
    } finally {
      helper.waiting(false);
      helping = false;
    }
    return CommitWait.join(commit);
  }
}
