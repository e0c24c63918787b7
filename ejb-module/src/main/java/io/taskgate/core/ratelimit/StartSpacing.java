package io.taskgate.core.ratelimit;

import io.taskgate.api.RateLimitPolicy;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The policy checked once more, against the times gated tasks really start on this node.
 *
 * <p>The limiter hands out slots that conform to the policy, and a task never starts before its
 * slot; but a task can start late (a collector pause, a slow commit, a busy CPU), and a late start
 * followed by on-time ones bunches starts closer together than the policy allows: after a stall
 * longer than the burst tolerance, catching up would be a violation. This is a second GCRA (virtual
 * scheduling, as in ITU-T I.371) over the observed starts of each (scope, key): a start conforms if
 * it is no earlier than {@code TAT − τ}, and moves {@code TAT} to {@code max(TAT, start + margin) +
 * T}. A start that would not conform waits until it does, so a stall leaves the key's later starts
 * late (by the stall less the burst tolerance) instead of bunched; on-time starts conform, because
 * the slots do. Tasks told to wait are lined up one emission interval apart, in the order they were
 * told, and a new start waits behind them (see {@link #hold}). A new key of a policy that starts
 * empty starts empty here too (its first start is free, the next comes one interval later): a first
 * start that came late (a cold claim after a restart) must not leave the slots decided before it
 * free to catch up at once, as a full bucket would.
 *
 * <p>The {@code margin} (at most half the burst tolerance: {@link #marginNanos}) covers the time
 * between the moment a start is counted and the handler's own first instruction: a start is
 * recorded as if it happened that much later. Where the key's bucket is spent (starts come at
 * {@code TAT − τ}) that changes nothing; where it has room (the first start after the key was idle,
 * or after a stall longer than τ) the start's own time sets {@code TAT}, and a handler that sees
 * its start later than counted would otherwise move the real chain on by as much and leave the next
 * starts, pressed against the count, too close to it. So the starts as the handlers see them
 * conform whenever each handler sees its start no more than the margin after it was counted: the
 * engine keeps the policy with the margin less tolerance on the times it counts. A caller that
 * reserves slots for the start of a task ({@code KeyedRateLimiter.reserve}) should reserve them for
 * the counted start plus the margin, so that the two chains agree (see the gate's start lag).
 *
 * <p>Thread-safe; a start holds its key's entry for a few instructions. It never reads a clock. A
 * key whose {@code TAT} has passed holds nothing that a fresh key would not, and is forgotten when
 * the table grows; at {@code maxKeys} keys in use, a new key starts unchecked (fail-open, like the
 * limiter's own key cap).
 */
public final class StartSpacing {

  /**
   * The default margin: 5 ms. Measured on the pacing benchmark's first runs after a boot, where
   * code runs for the first time, handlers saw their starts more than 1.5 ms after the count.
   */
  public static final long DEFAULT_MARGIN_NANOS = 5_000_000;

  private static final int FIRST_SWEEP = 1024;

  private final int maxKeys;
  private final long marginNanos;
  private final Map<Scoped, State> states = new ConcurrentHashMap<>();
  private final AtomicInteger sweepAt = new AtomicInteger(FIRST_SWEEP);
  private final AtomicLong lastSweep = new AtomicLong(Long.MIN_VALUE / 2);

  /** At the cap, a new key sweeps at most this often (a sweep reads every key). */
  private static final long SWEEP_AT_CAP_EVERY_NANOS = 10_000_000;

  private record Scoped(String scope, String key) {}

  /**
   * @param maxKeys the most keys tracked at once, at least 1
   * @param marginNanos how much later than checked a start is recorded, zero or more
   */
  public StartSpacing(int maxKeys, long marginNanos) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be at least 1, was " + maxKeys);
    }
    if (marginNanos < 0) {
      throw new IllegalArgumentException("marginNanos must be zero or more, was " + marginNanos);
    }
    this.maxKeys = maxKeys;
    this.marginNanos = marginNanos;
  }

  /**
   * How much later than counted a start of {@code policy}'s keys is recorded: the margin given, at
   * most half the policy's burst tolerance (none for a burst of 1, whose starts have no tolerance
   * to spare).
   */
  public long marginNanos(RateLimitPolicy policy) {
    return Math.min(marginNanos, policy.burstToleranceNanos() / 2);
  }

  /**
   * A start told to wait: until when ({@code until}, epoch nanoseconds), and its place in its key's
   * line ({@code place}: when it would start if the line did not slip), to be handed back when it
   * comes back ({@link #hold}).
   */
  public record Hold(long until, long place) {}

  /**
   * A task of {@code scope}'s {@code key} is about to start at {@code nowEpochNanos}. Returns null
   * if it may (its start is recorded), else how long it waits, and its place in line.
   *
   * <p>Two chains are kept per key. The observed one holds the starts really made: every start must
   * conform to it, which is the guarantee. The reserved one adds the starts told to wait: a task
   * told to wait is given the next conforming time after every start and every wait before it, its
   * place in line ({@code TAT − τ} of this chain, which then moves on one interval), so waiting
   * tasks come back one interval apart in the order they were told, and a new start lines up behind
   * them.
   *
   * <p>A task coming back ({@code previous}: what it was told last) keeps its place. Places are
   * kept as they were given out, and the line's slip is kept apart: when a task back at its place
   * (as far as the line slipped) still does not conform, because the starts before it began later
   * than their places, the line slips by as much, and it waits for the observed chain; every place
   * after it moves with it, in order, and a task that comes back before its place (the line slipped
   * while it waited) waits until then. So a task is never sent to the back of the line (there, it
   * could meet another late start, and again, and never start), waiting tasks never bunch, and a
   * stall leaves the starts after it late by the stall less the tolerance.
   *
   * @param previous null, or the hold this task was told last
   */
  public Hold hold(
      String scope, String key, RateLimitPolicy policy, long nowEpochNanos, Hold previous) {
    return hold(scope, key, policy, nowEpochNanos, previous, 1);
  }

  /**
   * {@link #hold(String, String, RateLimitPolicy, long, Hold)} of a start that spends {@code cost}
   * units of the key's budget: it conforms at {@code TAT + (cost − 1)·T − τ} and moves {@code TAT}
   * on by {@code cost · T}.
   */
  public Hold hold(
      String scope,
      String key,
      RateLimitPolicy policy,
      long nowEpochNanos,
      Hold previous,
      int cost) {
    Objects.requireNonNull(policy, "policy");
    Scoped scoped = new Scoped(scope, key);
    if (!states.containsKey(scoped)) {
      int size = states.size();
      if (size >= sweepAt.get()
          || size >= maxKeys && nowEpochNanos - lastSweep.get() >= SWEEP_AT_CAP_EVERY_NANOS) {
        sweep(nowEpochNanos);
      }
      if (states.size() >= maxKeys) {
        return null; // fail open: too many keys in use to check one more
      }
    }
    long interval = policy.emissionIntervalNanos();
    long emission = cost * interval; // how far a start moves the chains
    long tolerance = policy.burstToleranceNanos();
    long reach = tolerance - (cost - 1) * interval; // how far ahead of now TAT may be
    long margin = marginNanos(policy);
    Hold[] hold = {null};
    states.compute(
        scoped,
        (k, state) -> {
          State was =
              state != null
                  ? state
                  : policy.startEmpty() ? State.empty(nowEpochNanos, tolerance) : State.NEW;
          long observedBound = bound(was.observed(), reach);
          long startNow = nowEpochNanos + margin;
          if (previous == null) {
            long lineBound = Math.max(bound(was.reserved(), reach), observedBound);
            if (nowEpochNanos >= lineBound) {
              long observed = Math.max(was.observed(), startNow) + emission;
              long reserved = Math.max(was.reserved(), startNow) + emission;
              return was.with(
                  Math.max(reserved, observed), observed, state == null && policy.startEmpty());
            }
            // told to wait: the next place in line
            hold[0] = new Hold(lineBound, lineBound - was.slip());
            return was.with(
                Math.max(was.reserved(), lineBound + margin) + emission,
                was.observed(),
                was.firstOfEmpty());
          }
          long due = previous.place() + was.slip(); // its place, as far as the line slipped
          if (nowEpochNanos < due) {
            hold[0] = new Hold(due, previous.place()); // the line slipped while it waited
            return was;
          }
          if (nowEpochNanos >= observedBound) {
            long observed = Math.max(was.observed(), startNow) + emission;
            return was.with(
                Math.max(was.reserved(), observed), observed, state == null && policy.startEmpty());
          }
          // the starts before it came late: the line slips, it and every place after it
          hold[0] = new Hold(observedBound, previous.place());
          return was.slipped(observedBound - due);
        });
    return hold[0];
  }

  private static long bound(long tat, long tolerance) {
    return tat == Long.MIN_VALUE ? Long.MIN_VALUE : tat - tolerance;
  }

  /**
   * The start {@link #hold} let through really began at {@code nowEpochNanos} (the handler is being
   * called): the observed chain moves on as if it had been recorded then, if that is later. Calling
   * this as close to the handler as possible keeps the path between the check and the handler out
   * of the margin.
   */
  public void started(String scope, String key, RateLimitPolicy policy, long nowEpochNanos) {
    started(scope, key, policy, nowEpochNanos, 1);
  }

  /** {@link #started(String, String, RateLimitPolicy, long)} of a start of {@code cost} units. */
  public void started(
      String scope, String key, RateLimitPolicy policy, long nowEpochNanos, int cost) {
    long emission = cost * policy.emissionIntervalNanos();
    long margin = marginNanos(policy);
    long tolerance = policy.burstToleranceNanos();
    states.computeIfPresent(
        new Scoped(scope, key),
        (k, state) -> {
          // the first start of a key that starts empty leaves the bucket empty from when it began
          long floor = nowEpochNanos + margin + emission + (state.firstOfEmpty() ? tolerance : 0);
          if (floor <= state.observed()) {
            return state.firstOfEmpty() ? state.begun() : state;
          }
          return state.startedAt(floor);
        });
  }

  /**
   * The theoretical arrival time of {@code key}'s starts under {@code scope} (the observed chain),
   * or {@link Long#MIN_VALUE} for a key not tracked: what a restart carries over.
   */
  public long observed(String scope, String key) {
    State state = states.get(new Scoped(scope, key));
    return state == null ? Long.MIN_VALUE : state.observed();
  }

  /**
   * Carries a key's starts over a restart: both its chains move to at least {@code floor}, never
   * back; a key not tracked is tracked from it (within the key cap).
   */
  public void restore(String scope, String key, long floor) {
    Scoped scoped = new Scoped(scope, key);
    if (!states.containsKey(scoped) && states.size() >= maxKeys) {
      return; // fail open, as a new key at the cap
    }
    states.merge(
        scoped,
        new State(floor, floor, 0, false),
        (was, restored) ->
            was.with(Math.max(was.reserved(), floor), Math.max(was.observed(), floor), false));
  }

  /**
   * A key's two chains: the theoretical arrival time of its starts and waiting tasks ({@code
   * reserved}, as the line's places stand now: slipped), and of its starts alone ({@code
   * observed}); how far the line slipped since its places were given out ({@code slip}: a place
   * given out as {@code p} now stands at {@code p + slip}); {@code firstOfEmpty}: the only start so
   * far is the first of a key that starts empty, not yet begun.
   */
  private record State(long reserved, long observed, long slip, boolean firstOfEmpty) {
    static final State NEW = new State(Long.MIN_VALUE, Long.MIN_VALUE, 0, false);

    /**
     * A key whose policy starts empty, seen first at {@code now}: its first start is free, the next
     * one interval later, as the limiter's slots of a new key are.
     */
    static State empty(long now, long tolerance) {
      return new State(now + tolerance, now + tolerance, 0, false);
    }

    State with(long reserved, long observed, boolean firstOfEmpty) {
      return new State(reserved, observed, slip, firstOfEmpty);
    }

    /** The line slipped {@code by} more: its end moves with it. */
    State slipped(long by) {
      return new State(
          reserved == Long.MIN_VALUE ? reserved : reserved + by, observed, slip + by, firstOfEmpty);
    }

    /** The first start of a key that starts empty has begun. */
    State begun() {
      return with(reserved, observed, false);
    }

    /** A start began later than checked: both chains move on from {@code tat}. */
    State startedAt(long tat) {
      return with(Math.max(reserved, tat), tat, false);
    }

    /** Whether a start now would find nothing a new key would not. */
    boolean spent(long nowEpochNanos) {
      return reserved <= nowEpochNanos && observed <= nowEpochNanos;
    }
  }

  /** Keys tracked now (some of them may be stale until the next sweep). */
  public int keys() {
    return states.size();
  }

  /**
   * Forgets the keys whose {@code TAT} and holds have passed (a start now conforms and is recorded
   * as for a new key), and sets the next sweep at twice what is left. Runs when the table has
   * doubled, or when it is at the cap (at most every {@value #SWEEP_AT_CAP_EVERY_NANOS} ns).
   */
  private void sweep(long nowEpochNanos) {
    int at = sweepAt.get();
    if (!sweepAt.compareAndSet(at, Integer.MAX_VALUE)) {
      return; // another thread sweeps
    }
    lastSweep.set(nowEpochNanos);
    states
        .values()
        .removeIf(state -> state.spent(nowEpochNanos)); // by value: one updated meanwhile stays
    sweepAt.set((int) Math.min(Integer.MAX_VALUE - 1L, Math.max(FIRST_SWEEP, 2L * states.size())));
  }
}
