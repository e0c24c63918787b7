package io.taskgate.engine.admin.dto;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One throttler as the views show it: a defined semaphore or window, a mutex while it is held, a
 * semaphore or window that handlers name but nobody defined, or a task type's concurrency limit
 * with the keys held now.
 *
 * @param kind {@code mutex}, {@code semaphore}, {@code fixed-window}, {@code sliding-window},
 *     {@code dynamic-window} or {@code concurrency}
 * @param id its id
 * @param defined whether it is defined (a mutex always is); false: tasks naming it fail
 * @param limit a semaphore's max count, a window's limit (1 for a mutex); null if undefined
 * @param interval a window's interval; null otherwise
 * @param buckets a window's buckets; null otherwise
 * @param capacity a dynamic window's capacity (0: none); null otherwise
 * @param minLimit a rebalanced dynamic window's least limit; null otherwise
 * @param maxLimit a rebalanced dynamic window's most limit; null otherwise
 * @param held owners holding a mutex or semaphore (over the limit while a lowered count drains)
 * @param holders who holds it: owner and tasks
 * @param waiting tasks waiting for it on this instance
 * @param waitingTasks the first of them, first come first
 * @param inInterval a window's starts in its current interval; null otherwise
 * @param bucketCounts a window's starts per bucket in its current interval, oldest first
 * @param nextOpening when a full window lets the next start in; null if it has room
 * @param subWindows a dynamic window's sub-windows with their starts and current limits
 * @param usedBy the task types naming it
 * @param removable whether an admin may remove its definition (a defined semaphore or window)
 */
public record ThrottlerView(
    String kind,
    String id,
    boolean defined,
    Integer limit,
    Duration interval,
    Integer buckets,
    Integer capacity,
    Integer minLimit,
    Integer maxLimit,
    int held,
    List<Holder> holders,
    int waiting,
    List<String> waitingTasks,
    Integer inInterval,
    List<BucketCount> bucketCounts,
    Instant nextOpening,
    List<SubWindow> subWindows,
    List<String> usedBy,
    boolean removable) {

  /** An owner and the tasks holding under it. */
  public record Holder(String owner, List<String> tasks) {}

  /** Starts counted in the bucket beginning at {@code start}. */
  public record BucketCount(Instant start, int count) {}

  /** A dynamic window's sub-window: its starts in the interval and its current limit. */
  public record SubWindow(String id, int count, int limit) {}
}
