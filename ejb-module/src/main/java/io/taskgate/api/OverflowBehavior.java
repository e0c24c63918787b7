package io.taskgate.api;

/** What happens to a task whose key has no budget left. */
public enum OverflowBehavior {
  /** Reserve the key's next free slot and park the task until then (the default). */
  WAIT_FOR_CAPACITY,
  /** Reject at once: no slot is reserved and no budget is spent. */
  DISCARD
}
