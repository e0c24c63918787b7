package io.taskgate.core.ratelimit;

import io.taskgate.api.OverflowBehavior;
import io.taskgate.api.RateLimitPolicy;
import java.time.Instant;

/**
 * Per-(scope, key) budgets for tasks: the seam between the task gate and a limiter implementation
 * (in memory by default, a data grid in a cluster).
 *
 * <p>Every implementation keeps these invariants:
 *
 * <ul>
 *   <li><b>Never blocks.</b> A call answers "run now" or "your slot is T" at once; waiting is the
 *       caller's business.
 *   <li><b>Idempotent reservations.</b> Reserving again with the id of a pending reservation
 *       returns the same slot and spends no budget. Once the slot has come, that call redeems the
 *       reservation ({@link RateLimitDecision.Outcome#RUN_NOW}) and the limiter forgets it.
 *   <li><b>Non-decreasing slots.</b> The slots reserved for one key never go backwards, even if the
 *       caller's clock does.
 *   <li><b>Wall-clock UTC.</b> Times are nanoseconds since the epoch, so a slot means the same
 *       instant on every node.
 *   <li><b>Rejections are free.</b> A rejected reservation spends no budget.
 *   <li><b>Fail open.</b> When a key cannot be tracked (a key cap, an infrastructure fault) the
 *       answer is {@link RateLimitDecision.Outcome#UNTRACKED} or an exception the gate treats the
 *       same way: the task runs unthrottled, never lost.
 *   <li><b>Thread-safe.</b> Any thread may call any method at any time.
 * </ul>
 */
public interface KeyedRateLimiter {

  /**
   * Spends budget for one execution of a task under {@code key}, or reserves the next free slot.
   *
   * @param scope the task type's scope and policy
   * @param key the throttling key (tenant, account, …); not null
   * @param reservationId the task's identity, so that a redelivery redeems its slot instead of
   *     spending new budget; null when no reservation should be remembered
   * @param nowEpochNanos the current time, nanoseconds since the epoch
   */
  RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long nowEpochNanos);

  /** {@link #reserve(RateLimitScope, String, Object, long)} at an instant. */
  default RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, Instant now) {
    return reserve(scope, key, reservationId, EpochNanos.of(now));
  }

  /**
   * {@link #reserve(RateLimitScope, String, Object, long)} for a task that spends {@code cost}
   * units of the key's budget (1 to the policy's burst): its slot is where all of them conform,
   * {@code max(TAT, now) + (cost − 1)·T − τ}, and the key's TAT moves on by {@code cost · T}.
   *
   * <p>The default, for a limiter written before costs, reserves {@code cost} units one by one (the
   * id with {@code #1} … {@code #(cost − 1)}, then the task's id), after a {@link #peek} for {@code
   * cost} units that rejects without spending, and answers the last one's decision: the same slots
   * and budget as one reservation of {@code cost} units, redeemed together when the task comes back
   * with its id. (A key with budget for some units whose last would lie beyond the horizon is
   * rejected after spending the first: Taskgate's own limiters never do that.)
   */
  default RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long nowEpochNanos, int cost) {
    if (cost == 1) {
      return reserve(scope, key, reservationId, nowEpochNanos);
    }
    RateLimitDecision last = peek(scope, key, nowEpochNanos, cost);
    if (last.rejected()) {
      return last;
    }
    for (int unit = 1; unit <= cost; unit++) {
      Object id =
          reservationId == null || unit == cost ? reservationId : reservationId + "#" + unit;
      last = reserve(scope, key, id, nowEpochNanos);
    }
    return last;
  }

  /**
   * The decision a new reservation for {@code key} would get now, spending nothing and remembering
   * nothing.
   */
  RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos);

  /**
   * {@link #peek(RateLimitScope, String, long)} for {@code cost} units. The default moves a
   * deferred one-unit answer's slot on by {@code (cost − 1)·T} and judges it again; a one-unit
   * answer that runs now it answers as it is (it cannot tell how many units the key has).
   */
  default RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos, int cost) {
    RateLimitDecision one = peek(scope, key, nowEpochNanos);
    if (cost == 1 || one.slotEpochNanos() == RateLimitDecision.NO_SLOT) {
      return one;
    }
    RateLimitPolicy policy = scope.policy();
    return Gcra.reservation(
        one.slotEpochNanos() + (cost - 1) * policy.emissionIntervalNanos(),
        nowEpochNanos,
        policy.maxReservationHorizonNanos(),
        policy.overflow() == OverflowBehavior.DISCARD);
  }

  /**
   * Forgets a pending reservation (its task was cancelled or re-keyed). The slot is not given back:
   * later reservations keep theirs. Returns whether there was one.
   */
  boolean release(RateLimitScope scope, String key, Object reservationId);

  /**
   * The key's upstream asked to slow down until {@code untilEpochNanos}: moves the key's schedule
   * so that nothing of it starts before then. {@code first} (the pushed-back task's id; null for
   * none) gets a reservation at that time; the key's other reservations still to come shift later
   * together, keeping their spacing, to follow it (a task parked for one finds its new slot when it
   * comes back); and the key's next free slot moves after them, with no burst. Returns the shift of
   * the other reservations in nanoseconds. The default does nothing.
   */
  default long shift(
      RateLimitScope scope, String key, long untilEpochNanos, long nowEpochNanos, Object first) {
    return 0;
  }

  /**
   * Carries a key's budget over a restart: its theoretical arrival time (and, where the limiter
   * keeps one, that of its starts) moves to at least {@code floorEpochNanos}, never back; a key not
   * tracked is tracked from it. Reservations are not restored: their tasks reserve again. Returns
   * whether the limiter now holds the floor. The default holds nothing: with a limiter that does
   * not implement it, every key starts after a restart as a new one.
   */
  default boolean restore(
      RateLimitScope scope, String key, long floorEpochNanos, long nowEpochNanos) {
    return false;
  }

  /** What {@link #reservedSlot} answers for no pending reservation. */
  long NO_RESERVATION = Long.MIN_VALUE;

  /**
   * The slot of a pending reservation, as epoch nanoseconds, or {@link #NO_RESERVATION}. The
   * default knows none: a limiter whose reservations live only in one instance's memory has none
   * that another instance could redeem.
   */
  default long reservedSlot(RateLimitScope scope, String key, Object reservationId) {
    return NO_RESERVATION;
  }

  /**
   * Forgets keys whose budget has refilled completely, which would restart exactly as a new key
   * (or, for {@code startEmpty} policies, stricter), and reservations left unredeemed for over an
   * hour past their slot. Returns how many keys were forgotten.
   */
  int evictIdle(long nowEpochNanos);

  /**
   * A bounded, filtered view of the tracked keys for monitoring: the first {@code query.limit()}
   * keys in the query's order that pass its filters, with their state at {@code nowEpochNanos}, and
   * how many matched in all. Never blocks the gate for longer than a short copy; the answer may mix
   * states from slightly different instants under concurrent reservations. Memory is bounded by the
   * limit, whatever the number of keys.
   *
   * <p>The default answers {@link KeySnapshot#UNSUPPORTED}: an implementation that cannot list its
   * keys (a remote store, say) keeps it, and monitoring then shows only the keys that have parked
   * tasks.
   */
  default KeySnapshot keys(KeyQuery query, long nowEpochNanos) {
    return KeySnapshot.UNSUPPORTED;
  }

  /** A point-in-time view of what the limiter holds. */
  Stats stats();

  /**
   * {@code limiter}'s {@link #stats}, or {@link Stats#UNKNOWN} when it throws or answers null (a
   * replacement's fault): the gate, the views and the metrics read the stats only through this, so
   * that a limiter that cannot say what it holds never fails them (fail open).
   */
  static Stats statsOf(KeyedRateLimiter limiter) {
    try {
      Stats stats = limiter.stats();
      return stats == null ? Stats.UNKNOWN : stats;
    } catch (RuntimeException e) {
      return Stats.UNKNOWN;
    }
  }

  /**
   * Counters of a limiter.
   *
   * @param trackedKeys keys with a budget in memory
   * @param pendingReservations reserved slots not yet redeemed
   * @param untrackedDecisions how many times a new key was let through untracked because the key
   *     cap was reached (the fail-open count)
   * @param maxTrackedKeys the key cap
   */
  record Stats(
      int trackedKeys, int pendingReservations, long untrackedDecisions, int maxTrackedKeys) {
    /** What {@link #statsOf} answers for a limiter that cannot say: all zero. */
    public static final Stats UNKNOWN = new Stats(0, 0, 0, 0);
  }
}
