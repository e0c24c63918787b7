package io.taskgate.engine.admin.dto;

/**
 * The limiter and the parking lot as a whole.
 *
 * @param trackedKeys keys with a budget in memory
 * @param maxTrackedKeys the key cap ({@code taskgate.rate-limit.max-tracked-keys})
 * @param failOpenCount new keys let through unthrottled because the key cap was reached, since the
 *     start
 * @param throttledKeys keys with parked tasks, on this instance or on a live peer (as of its last
 *     heartbeat)
 * @param parkedTasks tasks parked until their slot on this instance
 * @param peerParkedTasks tasks parked on the live peers sharing the database, as of their last
 *     heartbeats
 * @param maxParkedTasks this instance's parking lot's cap ({@code
 *     taskgate.rate-limit.max-parked-tasks})
 * @param heldTasks rate-limited tasks held on their queues because the parking lot is full
 * @param pendingReservations reserved slots not yet redeemed
 * @param keysListed false when the limiter cannot list its keys: the rows are then only the keys
 *     with parked tasks
 */
public record RateLimitTotals(
    int trackedKeys,
    int maxTrackedKeys,
    long failOpenCount,
    int throttledKeys,
    int parkedTasks,
    int peerParkedTasks,
    int maxParkedTasks,
    int heldTasks,
    int pendingReservations,
    boolean keysListed) {}
