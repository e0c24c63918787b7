package io.taskgate.engine.limiter;

/** Which waiter a {@link WaitingRateLimiter} serves first when permits come back. */
public enum QueueOrder {
  /** First come, first served; a newcomer is refused when the queue is full. */
  OLDEST_FIRST,
  /** Last come, first served; a newcomer evicts the oldest waiters when the queue is full. */
  NEWEST_FIRST
}
