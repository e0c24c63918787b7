package io.taskgate.core.ratelimit;

import io.taskgate.api.OverflowBehavior;
import io.taskgate.api.RateLimitPolicy;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

/**
 * One key's GCRA state as a shared store keeps it (a data-grid entry): its theoretical arrival time
 * and its pending reservations, as bytes, so that the store holds no class of the application and
 * an update is one read-modify-write of one value. The cell encodes the state; the arithmetic is
 * {@link Gcra}'s, the decisions and invariants {@link GcraShard}'s for one key (idempotent
 * reservations, non-decreasing slots, rejections spend nothing). <b>Not thread-safe</b>: the store
 * runs one update of a key at a time.
 *
 * <p>Beside the slots it hands out, the cell keeps a second chain over the starts really made, on
 * whichever instance ({@link #tryStart}): a task that starts late (a paused instance, a slow claim,
 * a call decided without the grid) and an on-time one after it would otherwise come closer together
 * than the policy allows, so every gated start is checked against it at the last moment.
 *
 * <p>Encoding: TAT (8 bytes), reservation count (4), per reservation the id's halves and the slot
 * (24), then once a start was counted the starts' TAT (8; absent: a full bucket), then a pending
 * start's token and lease (16). A key with no reservation is 12 bytes. Requests may cost several
 * units of the key's budget (the {@code cost} overloads); the others cost one.
 */
public final class GcraCell {
  /** The TAT of a key never seen (or forgotten). */
  static final long NEW_KEY = Gcra.NEW_KEY;

  private long tat = NEW_KEY;
  private long startTat = NEW_KEY; // the chain of the starts really made, from every instance
  private long pendingToken; // the start checked and not yet begun; 0: none
  private long pendingUntil; // when that start's claim on the key lapses
  private long[] reservations = new long[0]; // id high, id low, slot; in the order made
  private int size;
  private boolean changed;

  private GcraCell() {}

  /** The cell these bytes encode; a new key's for null. */
  public static GcraCell decode(byte[] bytes) {
    GcraCell cell = new GcraCell();
    if (bytes == null) {
      return cell;
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    cell.tat = in.getLong();
    cell.size = in.getInt();
    cell.reservations = new long[cell.size * 3];
    for (int i = 0; i < cell.reservations.length; i++) {
      cell.reservations[i] = in.getLong();
    }
    if (in.remaining() >= Long.BYTES) {
      cell.startTat = in.getLong();
    }
    if (in.remaining() >= 2 * Long.BYTES) {
      cell.pendingToken = in.getLong();
      cell.pendingUntil = in.getLong();
    }
    return cell;
  }

  /** This cell's bytes. */
  public byte[] encode() {
    boolean pending = pendingToken != 0;
    boolean starts = pending || startTat != NEW_KEY;
    ByteBuffer out =
        ByteBuffer.allocate(
            12 + size * 24 + (starts ? Long.BYTES : 0) + (pending ? 2 * Long.BYTES : 0));
    out.putLong(tat).putInt(size);
    for (int i = 0; i < size * 3; i++) {
      out.putLong(reservations[i]);
    }
    if (starts) {
      out.putLong(startTat);
    }
    if (pending) {
      out.putLong(pendingToken).putLong(pendingUntil);
    }
    return out.array();
  }

  /** Whether the last call changed the cell, so that it must be written back. */
  public boolean changed() {
    return changed;
  }

  /** The key's theoretical arrival time; {@link Long#MIN_VALUE} for a key never seen. */
  public long tat() {
    return tat;
  }

  /** Reservations pending. */
  public int pendingReservations() {
    return size;
  }

  /**
   * See {@link KeyedRateLimiter#reserve(RateLimitScope, String, Object, long)}; reservations made
   * over an hour before {@code now} that were never redeemed are forgotten on the way.
   *
   * @param reservationId the task's id, or null when no reservation should be remembered
   */
  public RateLimitDecision reserve(Rules rules, UUID reservationId, long now) {
    return reserve(rules, reservationId, now, 1);
  }

  public RateLimitDecision reserve(Rules rules, UUID reservationId, long now, int cost) {
    changed = false;
    dropStale(now);
    if (reservationId != null) {
      int at = indexOf(reservationId);
      if (at >= 0) {
        long slot = reservations[at * 3 + 2];
        if (slot > now) {
          return RateLimitDecision.deferred(slot, now);
        }
        removeAt(at);
        changed = true;
        return RateLimitDecision.runNow();
      }
    }
    long from = from(rules, now);
    long slot = Gcra.slot(from, cost, rules.interval(), rules.tolerance());
    RateLimitDecision decision = Gcra.reservation(slot, now, rules.horizon(), rules.discard());
    if (decision.rejected()) {
      return decision;
    }
    if (decision.outcome() == RateLimitDecision.Outcome.DEFERRED && reservationId != null) {
      add(reservationId, slot);
    }
    tat = Gcra.spend(from, cost, rules.interval());
    changed = true;
    return decision;
  }

  /**
   * A gated task of this key is about to start at {@code now}, on whichever instance: 0 if it may
   * (its start is counted, as of {@code now}, and stays pending until {@link #begun} says when it
   * really began), else how many nanoseconds to wait before asking again. A start conforms when it
   * is no earlier than the starts' {@code TAT − τ − jitter}; it moves their {@code TAT} to {@code
   * max(TAT, now) + T}. While another start of the key is pending (checked, its handler not yet
   * entered, for at most {@code leaseNanos}) no other may start: the time it really begins is not
   * known yet, and a start that reached its handler late would otherwise meet the next one. On-time
   * starts conform, because the slots do; a late start holds the next ones back by as much as it
   * was late beyond the burst tolerance, instead of letting them bunch after it. The chain of a
   * policy that starts empty starts empty: its first start is free, the next comes one interval
   * later.
   *
   * @param jitterNanos how much earlier than the chain allows a start may still come: the timers
   *     that bring tasks back at their slots fire by the monotonic clock, the check reads the wall
   *     clock
   * @param token this start's mark while pending (not 0), which {@link #begun} names
   * @param leaseNanos how long the start may stay pending before the key's others go on without it
   * @param pendingRetryNanos how long a start that finds another pending waits before asking again
   */
  public long tryStart(
      Rules rules,
      long now,
      long jitterNanos,
      long token,
      long leaseNanos,
      long pendingRetryNanos) {
    return tryStart(rules, now, jitterNanos, token, leaseNanos, pendingRetryNanos, 1);
  }

  public long tryStart(
      Rules rules,
      long now,
      long jitterNanos,
      long token,
      long leaseNanos,
      long pendingRetryNanos,
      int cost) {
    changed = false;
    if (pendingToken != 0 && now < pendingUntil) {
      if (pendingToken == token) {
        return 0; // an earlier check of this start landed after its caller stopped waiting
      }
      return Math.max(1, Math.min(pendingUntil - now, pendingRetryNanos));
    }
    if (startTat != NEW_KEY) {
      long earliest = Gcra.slot(startTat, cost, rules.interval(), rules.tolerance()) - jitterNanos;
      if (!Gcra.conforms(earliest, now)) {
        return Gcra.retryAfter(earliest, now);
      }
    }
    long from = Gcra.from(startTat, now, rules.tolerance(), rules.startEmpty());
    startTat = Gcra.spend(from, cost, rules.interval());
    pendingToken = token;
    pendingUntil = now + leaseNanos;
    changed = true;
    return 0;
  }

  /**
   * The start {@link #tryStart} counted with {@code token} reached its handler at {@code at}: it is
   * no longer pending, and the starts' chain moves on from then if that is later than counted
   * ({@code TAT} never moves back).
   */
  public void begun(Rules rules, long token, long at) {
    begun(rules, token, at, 1);
  }

  public void begun(Rules rules, long token, long at, int cost) {
    changed = false;
    if (token != 0 && pendingToken == token) {
      pendingToken = 0;
      pendingUntil = 0;
      changed = true;
    }
    long begunTat = Gcra.spend(at, cost, rules.interval());
    if (startTat != NEW_KEY && begunTat > startTat) {
      startTat = begunTat;
      changed = true;
    }
  }

  /** Whether a start of the key is pending (checked, not yet begun) at {@code now}. */
  public boolean startPending(long now) {
    return pendingToken != 0 && now < pendingUntil;
  }

  /** The TAT of the starts counted; {@link Long#MIN_VALUE} before the first. */
  public long startTat() {
    return startTat;
  }

  /** See {@link KeyedRateLimiter#peek(RateLimitScope, String, long)}. */
  public RateLimitDecision peek(Rules rules, long now) {
    return peek(rules, now, 1);
  }

  public RateLimitDecision peek(Rules rules, long now, int cost) {
    long slot = Gcra.slot(from(rules, now), cost, rules.interval(), rules.tolerance());
    return Gcra.reservation(slot, now, rules.horizon(), rules.discard());
  }

  /** See {@link KeyedRateLimiter#release(RateLimitScope, String, Object)}. */
  public boolean release(UUID reservationId) {
    int at = indexOf(reservationId);
    changed = at >= 0;
    if (changed) {
      removeAt(at);
    }
    return changed;
  }

  /**
   * Moves the key's schedule so that nothing starts before {@code until}: the reservation of {@code
   * first} (a task the upstream pushed back; null for none) is placed at {@code until}, the key's
   * other reservations still to come shift later together (keeping their spacing) to start after
   * it, and its TAT follows, so that from then on its starts are spaced. Returns the shift of the
   * other reservations.
   */
  public long shift(Rules rules, long until, long now, UUID first) {
    if (first != null) {
      int at = indexOf(first);
      if (at >= 0) {
        removeAt(at);
      }
    }
    long target = first == null ? until : until + rules.interval();
    long earliest = Long.MAX_VALUE;
    for (int i = 0; i < size; i++) {
      long slot = reservations[i * 3 + 2];
      if (slot > now) {
        earliest = Math.min(earliest, slot);
      }
    }
    long delta = Gcra.pushBackDelta(earliest, target);
    if (delta > 0) {
      for (int i = 0; i < size; i++) {
        if (reservations[i * 3 + 2] > now) {
          reservations[i * 3 + 2] += delta;
        }
      }
    }
    tat = Gcra.pushBack(tat, now, delta, target, rules.tolerance());
    if (first != null) {
      add(first, until);
    }
    changed = true;
    return delta;
  }

  /**
   * Moves the key's TAT to at least {@code floor}, never back: how a budget spent elsewhere (by a
   * fallback while the store did not answer) is carried into the cell.
   */
  public void raise(long floor) {
    changed = floor > tat;
    if (changed) {
      tat = floor;
    }
  }

  /** Carries the key's budget over a restart: both TATs move to at least {@code floor}. */
  public boolean restore(long floor) {
    changed = floor > tat || floor > startTat;
    tat = Math.max(tat, floor);
    startTat = Math.max(startTat, floor);
    return changed;
  }

  /**
   * Until when the cell matters at {@code now}: after it, forgetting the key changes nothing (its
   * budget is full and it has no reservation younger than an hour past its slot). At least {@code
   * now}.
   */
  public long neededUntil(long now) {
    long until = Math.max(Math.max(tat, startTat), now);
    for (int i = 0; i < size; i++) {
      until = Math.max(until, reservations[i * 3 + 2] + GcraShard.STALE_RESERVATION_NANOS);
    }
    return until;
  }

  private long from(Rules rules, long now) {
    return Gcra.from(tat, now, rules.tolerance(), rules.startEmpty());
  }

  private void dropStale(long now) {
    int i = 0;
    while (i < size) {
      if (reservations[i * 3 + 2] < now - GcraShard.STALE_RESERVATION_NANOS) {
        removeAt(i);
        changed = true;
      } else {
        i++;
      }
    }
  }

  /** The slot reserved for {@code id}, or {@link KeyedRateLimiter#NO_RESERVATION}. */
  public long slotOf(UUID id) {
    int at = indexOf(id);
    return at < 0 ? KeyedRateLimiter.NO_RESERVATION : reservations[at * 3 + 2];
  }

  private int indexOf(UUID id) {
    long high = id.getMostSignificantBits();
    long low = id.getLeastSignificantBits();
    for (int i = 0; i < size; i++) {
      if (reservations[i * 3] == high && reservations[i * 3 + 1] == low) {
        return i;
      }
    }
    return -1;
  }

  private void add(UUID id, long slot) {
    if (reservations.length < (size + 1) * 3) {
      reservations = Arrays.copyOf(reservations, Math.max(6, reservations.length * 2));
    }
    reservations[size * 3] = id.getMostSignificantBits();
    reservations[size * 3 + 1] = id.getLeastSignificantBits();
    reservations[size * 3 + 2] = slot;
    size++;
  }

  private void removeAt(int at) {
    System.arraycopy(reservations, (at + 1) * 3, reservations, at * 3, (size - at - 1) * 3);
    size--;
  }

  /**
   * A policy's numbers as the cell uses them: plain values, so that they travel to a store's node
   * as they are.
   *
   * @param interval the emission interval, nanoseconds
   * @param tolerance the burst tolerance, nanoseconds
   * @param horizon the reservation horizon, nanoseconds
   * @param startEmpty whether a new key starts with no saved-up budget
   * @param discard whether an over-budget task is rejected instead of deferred
   */
  public record Rules(
      long interval, long tolerance, long horizon, boolean startEmpty, boolean discard) {

    /** A policy's rules. */
    public static Rules of(RateLimitPolicy policy) {
      return new Rules(
          policy.emissionIntervalNanos(),
          policy.burstToleranceNanos(),
          policy.maxReservationHorizonNanos(),
          policy.startEmpty(),
          policy.overflow() == OverflowBehavior.DISCARD);
    }
  }
}
