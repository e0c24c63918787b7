package io.taskgate.core.ratelimit;

import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;

/**
 * An in-memory GCRA limiter for a share of the keys. <b>Not thread-safe</b>: the caller serializes
 * every call on one shard (the in-memory {@link KeyedRateLimiter} stripes keys over many shards).
 *
 * <h2>The algorithm</h2>
 *
 * Each (scope, key) has a theoretical arrival time {@code TAT}, moved by {@link Gcra}'s transition
 * one execution at a time; a task arriving at {@code now} gets {@link Gcra#reservation}'s answer:
 * run now, deferred to its slot (both spend, {@code TAT = max(TAT, now) + T}), or rejected beyond
 * the horizon or on a discarding overflow (nothing spent). A new key counts from {@code now}, or
 * from {@code now + τ} when its policy starts empty.
 *
 * <p>A key idle for {@code burst · T} has {@code TAT ≤ now}: its budget is full, and forgetting it
 * changes nothing (a forgotten key of a start-empty policy comes back empty: stricter, never
 * looser). Slots of one key never decrease because TAT never does.
 *
 * <h2>Memory</h2>
 *
 * Keys live in open-addressed tables (linear probing, backward-shift deletion), one per scope, as
 * three parallel arrays: key reference, key hash and TAT, 16 bytes a slot with compressed
 * references, at most 75% full. The key strings are the caller's; the table holds references.
 */
public final class GcraShard {
  /** A pending reservation is dropped this long after its slot if nobody redeemed it. */
  static final long STALE_RESERVATION_NANOS = 3_600_000_000_000L;

  /** At most one cap-driven sweep of a shard per this many nanoseconds. */
  static final long CAP_SWEEP_INTERVAL_NANOS = 1_000_000_000L;

  private final TrackedKeys trackedKeys;
  private final Map<String, GcraTable> tables = new HashMap<>();
  private GcraTable lastTable;
  private boolean capSwept;
  private long lastCapSweep;
  private int pendingReservations;

  /**
   * @param trackedKeys the key cap, shared with the limiter's other shards
   */
  public GcraShard(TrackedKeys trackedKeys) {
    this.trackedKeys = trackedKeys;
  }

  /** See {@link KeyedRateLimiter#reserve(RateLimitScope, String, Object, long)}. */
  public RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long now) {
    return reserve(scope, key, reservationId, now, 1);
  }

  /** See {@link KeyedRateLimiter#reserve(RateLimitScope, String, Object, long, int)}. */
  public RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long now, int cost) {
    // The hot path, kept small enough for the JIT to inline: a known key with budget.
    GcraTable table = table(scope);
    if (cost != 1) {
      return reserveSlow(table, key, reservationId, now, cost);
    }
    if (reservationId == null || table.reservations == null || table.reservations.isEmpty()) {
      int index = table.find(key, key.hashCode());
      if (index >= 0) {
        long from = Gcra.from(table.tats[index], now);
        if (Gcra.conforms(Gcra.slot(from, 1, table.interval, table.tolerance), now)) {
          table.tats[index] = Gcra.spend(from, 1, table.interval);
          return RateLimitDecision.runNow();
        }
      }
    }
    return reserveSlow(table, key, reservationId, now, 1);
  }

  private RateLimitDecision reserveSlow(
      GcraTable table, String key, Object reservationId, long now, int cost) {
    if (reservationId != null && table.reservations != null) {
      Reservation pending = table.reservations.get(reservationId);
      if (pending != null) {
        if (pending.key.equals(key)) {
          if (pending.slot > now) {
            return RateLimitDecision.deferred(pending.slot, now);
          }
          removeReservation(table, reservationId);
          return RateLimitDecision.runNow();
        }
        removeReservation(table, reservationId);
      }
    }

    int hash = key.hashCode();
    int index = table.find(key, hash);
    long from = from(table, index, now);
    long slot = Gcra.slot(from, cost, table.interval, table.tolerance);
    RateLimitDecision decision = Gcra.reservation(slot, now, table.horizon, table.discard);
    if (decision.rejected()) {
      return decision;
    }
    long newTat = Gcra.spend(from, cost, table.interval);
    if (index >= 0) {
      table.tats[index] = newTat;
    } else if (claimKey(now)) {
      table.insert(~index, key, hash, newTat);
    } else {
      trackedKeys.countUntracked();
      return RateLimitDecision.untracked();
    }
    if (decision.outcome() == Outcome.DEFERRED && reservationId != null) {
      if (table.reservations == null) {
        table.reservations = new HashMap<>();
      }
      table.reservations.put(reservationId, new Reservation(key, slot));
      pendingReservations++;
    }
    return decision;
  }

  /** See {@link KeyedRateLimiter#peek(RateLimitScope, String, long)}. */
  public RateLimitDecision peek(RateLimitScope scope, String key, long now) {
    return peek(scope, key, now, 1);
  }

  /** See {@link KeyedRateLimiter#peek(RateLimitScope, String, long, int)}. */
  public RateLimitDecision peek(RateLimitScope scope, String key, long now, int cost) {
    GcraTable table = table(scope);
    int index = table.find(key, key.hashCode());
    if (index < 0 && trackedKeys.tracked() >= trackedKeys.max()) {
      return RateLimitDecision.untracked();
    }
    long slot = Gcra.slot(from(table, index, now), cost, table.interval, table.tolerance);
    return Gcra.reservation(slot, now, table.horizon, table.discard);
  }

  /** The TAT a request at {@code now} counts from, for the key at {@code index} (negative: new). */
  private static long from(GcraTable table, int index, long now) {
    return index >= 0
        ? Gcra.from(table.tats[index], now)
        : Gcra.from(Gcra.NEW_KEY, now, table.tolerance, table.startEmpty);
  }

  /**
   * The theoretical arrival time of {@code key} under {@code scope} (its budget is whole once now
   * reaches it), or {@link Gcra#NEW_KEY} when the key is not tracked (a whole budget).
   */
  public long theoreticalArrival(RateLimitScope scope, String key) {
    GcraTable table = table(scope);
    int index = table.find(key, key.hashCode());
    return index >= 0 ? table.tats[index] : Gcra.NEW_KEY;
  }

  /** See {@link KeyedRateLimiter#release(RateLimitScope, String, Object)}. */
  public boolean release(RateLimitScope scope, String key, Object reservationId) {
    GcraTable table = tables.get(scope.name());
    if (table == null || table.reservations == null) {
      return false;
    }
    Reservation pending = table.reservations.get(reservationId);
    if (pending == null || !pending.key.equals(key)) {
      return false;
    }
    removeReservation(table, reservationId);
    return true;
  }

  /** See {@link KeyedRateLimiter#shift(RateLimitScope, String, long, long, Object)}. */
  public long shift(RateLimitScope scope, String key, long until, long now, Object first) {
    GcraTable table = table(scope);
    if (first != null && table.reservations != null && table.reservations.containsKey(first)) {
      removeReservation(table, first);
    }
    long target = first == null ? until : until + table.interval;
    long earliest = Long.MAX_VALUE;
    if (table.reservations != null) {
      for (Reservation r : table.reservations.values()) {
        if (r.key.equals(key) && r.slot > now) {
          earliest = Math.min(earliest, r.slot);
        }
      }
    }
    long delta = Gcra.pushBackDelta(earliest, target);
    if (delta > 0) {
      for (Map.Entry<Object, Reservation> e : table.reservations.entrySet()) {
        Reservation r = e.getValue();
        if (r.key.equals(key) && r.slot > now) {
          e.setValue(new Reservation(key, r.slot + delta));
        }
      }
    }
    int hash = key.hashCode();
    int index = table.find(key, hash);
    long shifted =
        Gcra.pushBack(
            index >= 0 ? table.tats[index] : Gcra.NEW_KEY, now, delta, target, table.tolerance);
    if (index >= 0) {
      table.tats[index] = shifted;
    } else if (claimKey(now)) {
      table.insert(~index, key, hash, shifted);
    } else {
      return delta;
    }
    if (first != null) {
      if (table.reservations == null) {
        table.reservations = new HashMap<>();
      }
      table.reservations.put(first, new Reservation(key, until));
      pendingReservations++;
    }
    return delta;
  }

  /** See {@link KeyedRateLimiter#restore(RateLimitScope, String, long, long)}. */
  public boolean restore(RateLimitScope scope, String key, long floor, long now) {
    GcraTable table = table(scope);
    int hash = key.hashCode();
    int index = table.find(key, hash);
    if (index >= 0) {
      table.tats[index] = Math.max(table.tats[index], floor);
      return true;
    }
    if (!claimKey(now)) {
      trackedKeys.countUntracked();
      return false;
    }
    table.insert(~index, key, hash, floor);
    return true;
  }

  /** See {@link KeyedRateLimiter#evictIdle(long)}. */
  public int evictIdle(long now) {
    int evicted = 0;
    for (GcraTable table : tables.values()) {
      evicted += table.evictFull(now);
      if (table.reservations != null) {
        Iterator<Reservation> it = table.reservations.values().iterator();
        while (it.hasNext()) {
          if (it.next().slot < now - STALE_RESERVATION_NANOS) {
            it.remove();
            pendingReservations--;
          }
        }
      }
    }
    trackedKeys.forget(evicted);
    return evicted;
  }

  /**
   * Hands {@code sink} the state at {@code now} of every key of this shard that passes the query's
   * scope and text filters (not its {@link KeyQuery#filter()}, nor its order or limit).
   */
  public void scan(KeyQuery query, long now, Consumer<KeyState> sink) {
    for (GcraTable table : tables.values()) {
      if (table.policy == null
          || (query.scope().isPresent() && !query.scope().get().equals(table.name))) {
        continue;
      }
      String[] ks = table.keys;
      for (int i = 0; i < ks.length; i++) {
        String key = ks[i];
        if (key != null && query.matches(table.name, key)) {
          sink.accept(KeyState.of(table.name, key, table.policy, table.tats[i], now));
        }
      }
    }
  }

  /** Keys this shard tracks. */
  public int trackedKeys() {
    int n = 0;
    for (GcraTable table : tables.values()) {
      n += table.size;
    }
    return n;
  }

  /** Reservations this shard holds. */
  public int pendingReservations() {
    return pendingReservations;
  }

  private boolean claimKey(long now) {
    if (trackedKeys.tryTrack()) {
      return true;
    }
    if (capSwept && now - lastCapSweep < CAP_SWEEP_INTERVAL_NANOS) {
      return false;
    }
    capSwept = true;
    lastCapSweep = now;
    return evictIdle(now) > 0 && trackedKeys.tryTrack();
  }

  private void removeReservation(GcraTable table, Object reservationId) {
    table.reservations.remove(reservationId);
    pendingReservations--;
  }

  private GcraTable table(RateLimitScope scope) {
    GcraTable table = lastTable;
    if (table != null && table.scope == scope) {
      return table;
    }
    return switchTable(scope);
  }

  private GcraTable switchTable(RateLimitScope scope) {
    GcraTable table = tables.computeIfAbsent(scope.name(), GcraTable::new);
    if (table.policy != scope.policy()) {
      table.adopt(scope.policy());
    }
    table.scope = scope;
    lastTable = table;
    return table;
  }

  /** A task's reserved slot of a key. */
  record Reservation(String key, long slot) {}
}
