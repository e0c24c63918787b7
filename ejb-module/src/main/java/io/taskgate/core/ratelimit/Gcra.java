package io.taskgate.core.ratelimit;

/**
 * The one state transition of the GCRA (generic cell rate algorithm, virtual-scheduling form), as
 * pure functions of plain numbers: the in-memory {@link GcraShard}, the data grid's {@link
 * GcraCell} (which only encodes the state) and the method limiters all compute with these, none on
 * its own.
 *
 * <h2>The algorithm</h2>
 *
 * A key's state is one timestamp, its theoretical arrival time {@code TAT}: when its budget would
 * be exactly used up had it run at the steady pace. With emission interval {@code T = ceil(period /
 * permits)} and burst tolerance {@code τ = (burst − 1) · T}, a request for {@code n} units at
 * {@code now}
 *
 * <pre>
 *   from = max(TAT, now)              {@link #from(long, long)}; a new key: now, or now + τ when its
 *                                     policy starts empty ({@link #from(long, long, long, boolean)})
 *   slot = from + (n − 1) · T − τ     {@link #slot}: the earliest instant the request conforms
 *   conforms  ⇔ slot ≤ now           {@link #conforms}; otherwise it waits {@link #retryAfter}
 *   spent:  TAT = from + n · T        {@link #spend}
 * </pre>
 *
 * What a non-conforming request does is the caller's semantics, and the one place the users differ:
 * a method limiter refuses it and spends nothing (refuse now, with the exact retry-after); the
 * keyed limiters reserve the slot and spend it when it lies within the horizon, else reject it and
 * spend nothing ({@link #reservation}).
 *
 * <p>Guarantees (property-tested over this class): in any closed window of {@code W} nanoseconds at
 * most {@code burst + ⌊W / T⌋} units are granted (counted at {@code now} when they conform, at
 * their slot when reserved); a key with {@code TAT ≤ now} is idle and grants exactly {@code burst}
 * at once; the slots of one key are at least {@code T} apart, so beyond the burst its executions
 * are; asking again {@link #retryAfter} later conforms, and asking a nanosecond earlier does not.
 *
 * <p>Arithmetic is plain {@code long} arithmetic: policies bound {@code burst · T} (to 100 years),
 * so no sum of a time and a span here overflows for times in the years 1677 to 2262.
 */
public final class Gcra {

  /** The TAT of a key never seen (or forgotten): {@link #from(long, long)} reads it as idle. */
  public static final long NEW_KEY = Long.MIN_VALUE;

  private Gcra() {}

  /** The TAT a request at {@code now} is counted from: {@code max(tat, now)}. */
  public static long from(long tat, long now) {
    return Math.max(tat, now);
  }

  /**
   * The TAT a request at {@code now} is counted from, {@code tat} being {@link #NEW_KEY} for a key
   * never seen: that one counts from {@code now} (a full budget) or, for a policy that starts
   * empty, from {@code now + τ} (no saved-up budget: its first request conforms, the next one an
   * interval later).
   */
  public static long from(long tat, long now, long tolerance, boolean startEmpty) {
    if (tat == NEW_KEY) {
      return startEmpty ? now + tolerance : now;
    }
    return Math.max(tat, now);
  }

  /**
   * The earliest instant at which {@code n} units conform when counted from {@code from}: {@code
   * from + (n − 1) · T − τ}. For one unit, the slot a keyed limiter reserves.
   */
  public static long slot(long from, int n, long interval, long tolerance) {
    return from + (long) (n - 1) * interval - tolerance;
  }

  /** The TAT once {@code n} units counted from {@code from} are spent: {@code from + n · T}. */
  public static long spend(long from, int n, long interval) {
    return from + (long) n * interval;
  }

  /** Whether a request whose {@link #slot} is {@code slot} conforms at {@code now}. */
  public static boolean conforms(long slot, long now) {
    return slot <= now;
  }

  /** How long after {@code now} a request whose {@link #slot} is {@code slot} conforms; 0: now. */
  public static long retryAfter(long slot, long now) {
    return slot <= now ? 0 : slot - now;
  }

  /**
   * A keyed limiter's answer for one unit whose {@link #slot} is {@code slot} at {@code now}: run
   * now if it conforms; else rejected when the policy discards on overflow or the slot lies more
   * than {@code horizon} after now; else deferred to the slot. The caller spends the unit ({@link
   * #spend}) unless the answer is {@linkplain RateLimitDecision#rejected() a rejection}.
   */
  public static RateLimitDecision reservation(long slot, long now, long horizon, boolean discard) {
    if (slot <= now) {
      return RateLimitDecision.runNow();
    }
    if (discard) {
      return RateLimitDecision.discarded(slot, now);
    }
    if (slot - now > horizon) {
      return RateLimitDecision.beyondHorizon(slot, now);
    }
    return RateLimitDecision.deferred(slot, now);
  }

  /**
   * How many units conform at {@code now} for a key whose TAT is {@code tat} ({@link #NEW_KEY}: a
   * full budget): the largest {@code n ≤ burst} whose {@link #slot} is at most {@code now}; 0 while
   * even one would have to wait.
   */
  public static int available(long tat, long now, long interval, long tolerance, int burst) {
    long slot = Math.max(tat, now) - tolerance;
    if (slot > now) {
      return 0;
    }
    return (int) Math.min(burst, (now - slot) / interval + 1);
  }

  /**
   * The TAT of a key whose schedule an upstream push-back moves: the pending slots shift by {@code
   * delta} and nothing new may conform before {@code target}, so {@code max(max(tat, now) + delta,
   * target + τ)}.
   */
  public static long pushBack(long tat, long now, long delta, long target, long tolerance) {
    return Math.max(Math.max(tat, now) + delta, target + tolerance);
  }

  /**
   * How far a push-back to {@code target} moves a key's pending slots, the earliest of which is
   * {@code earliest} ({@link Long#MAX_VALUE}: none pending): never back.
   */
  public static long pushBackDelta(long earliest, long target) {
    return earliest == Long.MAX_VALUE ? 0 : Math.max(0, target - earliest);
  }
}
