package io.taskgate.engine.time;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * When a value cached from the database is read again: at its first use on the caller's thread,
 * then, once older than its time to live, on {@code executor} so that no task's path waits for the
 * database (on the caller's thread when there is no executor, outside the container). One refresh
 * at a time. Thread-safe.
 */
public final class CachedRead {
  private final Duration ttl;
  private final Runnable read;
  private final AtomicBoolean refreshing = new AtomicBoolean();
  private volatile Instant readAt = Instant.MIN;

  /** {@code read} reads the value again and marks when ({@link #read}). */
  public CachedRead(Duration ttl, Runnable read) {
    this.ttl = ttl;
    this.read = read;
  }

  /** Reads again now if the value is stale (see the class documentation). */
  public void refreshIfStale(Instant now, Executor executor) {
    if (!readAt.plus(ttl).isBefore(now)) {
      return;
    }
    if (readAt == Instant.MIN || executor == null) {
      read.run();
      return;
    }
    if (refreshing.compareAndSet(false, true)) {
      try {
        executor.execute(
            () -> {
              try {
                read.run();
              } finally {
                refreshing.set(false);
              }
            });
      } catch (RuntimeException e) {
        refreshing.set(false); // refused (shutting down): the cache stays as it is
      }
    }
  }

  /** The value was read at {@code at}. */
  public void read(Instant at) {
    readAt = at;
  }
}
