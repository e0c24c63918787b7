package io.taskgate.store;

import java.time.Instant;

/**
 * Told about every task write a {@link ListeningTaskStore} applied, after the write returned. Asked
 * first whether it listens at all, so that a store nobody watches pays one call per write.
 */
public interface TaskWriteListener {

  /** Whether {@link #written} wants to be called now; cheap, called for every write. */
  boolean listening();

  /**
   * A write was applied: {@code before} (null for an insert) became {@code after} at {@code at}.
   * Must be quick and must not throw.
   */
  void written(StoredTask before, StoredTask after, Instant at);
}
