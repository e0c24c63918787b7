package io.taskgate.engine.throttle;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.store.ThrottlerChange;
import io.taskgate.store.ThrottlerRecord;
import java.time.Duration;
import java.util.List;

/**
 * The changes an administrator makes to the throttles at run time, each audited as made by {@code
 * by}: semaphores and windows defined or removed, a task type's rate limit changed or reset, and
 * the change log. The API's {@code ThrottlingManager} makes the same changes as the application.
 */
public interface ThrottlerChanges {
  /** Defines semaphore {@code id} with {@code maxCount} permits; returns the definition. */
  ThrottlerRecord addOrUpdateSemaphore(String id, int maxCount, String by);

  /** Defines window {@code id} of {@code kind}; returns the definition. */
  ThrottlerRecord addOrUpdateWindow(
      ThrottlerKind kind, String id, WindowOptions options, String by);

  /** Removes throttler {@code id} of {@code kind}; false if it was not defined. */
  boolean remove(ThrottlerKind kind, String id, String by);

  /**
   * Changes the rate limit of task type {@code taskType}'s key {@code key} (null: every key);
   * returns the policy its next reservations get.
   */
  RateLimitPolicy setRateLimit(
      String taskType, String key, int permits, Duration period, int burst, String by);

  /** Gives {@code taskType}'s key {@code key} its declared rate limit back; false if unchanged. */
  boolean resetRateLimit(String taskType, String key, String by);

  /** The latest {@code max} changes of definitions, newest first. */
  List<ThrottlerChange> changes(int max);
}
