package io.taskgate.api;

/**
 * Which waiting call a limiter serves first when permits come back (see {@link
 * RateLimited#maxWait()}).
 */
public enum QueueOrder {
  /** First come, first served; a newcomer is refused when the queue is full. */
  OLDEST_FIRST,
  /** Last come, first served; a newcomer evicts the oldest waiters when the queue is full. */
  NEWEST_FIRST
}
