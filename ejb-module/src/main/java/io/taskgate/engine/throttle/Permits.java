package io.taskgate.engine.throttle;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The permits an admitted attempt holds, given back together exactly once: the first {@link
 * #release} calls each throttle's {@link Throttle#release} once, in the reverse of the order they
 * were acquired; any later call does nothing. A throttle whose release throws is logged and the
 * others still get theirs back. Thread-safe.
 */
public final class Permits {
  private static final Logger LOG = Logger.getLogger(Permits.class.getName());

  /** No permits: an attempt of a task type without throttles. */
  public static final Permits NONE = new Permits(List.of());

  /** A permit and the throttle it goes back to. */
  record Held(Throttle throttle, Permit permit) {}

  private final List<Held> held;
  private final AtomicBoolean released = new AtomicBoolean();

  Permits(List<Held> held) {
    this.held = List.copyOf(held);
  }

  /**
   * Gives every permit back, the attempt having ended in {@code end}; returns the resources freed.
   * Only the first call does anything.
   */
  public Set<String> release(AttemptEnd end) {
    if (held.isEmpty() || !released.compareAndSet(false, true)) {
      return Set.of();
    }
    Set<String> freed = Set.of(); // most releases free nothing: no set is made for them
    for (int i = held.size() - 1; i >= 0; i--) {
      Held h = held.get(i);
      try {
        Set<String> byThis = h.throttle().release(h.permit(), end);
        if (!byThis.isEmpty()) {
          if (freed.isEmpty()) {
            freed = new LinkedHashSet<>();
          }
          freed.addAll(byThis);
        }
      } catch (RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "Throttle " + h.throttle().name() + " failed to take its permit back",
            e);
      }
    }
    return freed;
  }

  /** Whether {@link #release} has been called. */
  public boolean released() {
    return released.get();
  }

  /**
   * The latest slot a throttle held the attempt until before it let it run ({@link
   * Permit#heldUntil}), or null when none held it.
   */
  public Instant heldUntil() {
    Instant latest = null;
    for (Held h : held) {
      Instant until = h.permit().heldUntil();
      if (until != null && (latest == null || until.isAfter(latest))) {
        latest = until;
      }
    }
    return latest;
  }

  /**
   * The check the attempt's start passes ({@link Throttle#startOf}): that of its budget spent by
   * time, {@link StartCheck#NONE} when it has none.
   */
  public StartCheck startCheck(UUID taskId) {
    for (Held h : held) {
      if (h.throttle().order() >= Throttle.BUDGETS) {
        return h.throttle().startOf(h.permit(), taskId);
      }
    }
    return StartCheck.NONE;
  }

  /** Tells every throttle that the attempt, let run at a slot ahead, is claimed for it. */
  public void claimedAhead(UUID taskId) {
    held.forEach(h -> h.throttle().claimedAhead(h.permit(), taskId));
  }

  /** Tells every throttle that the attempt claimed ahead stops waiting for its slot. */
  public void leftWaiting(UUID taskId) {
    held.forEach(h -> h.throttle().leftWaiting(h.permit(), taskId));
  }

  /**
   * Tells every throttle that the attempt's upstream asked to slow down until {@code until};
   * returns when the task comes back to its throttles: the earliest a throttle asked for, {@code
   * until} when none did ({@link Throttle#pushedBack}).
   */
  public Instant pushedBack(UUID taskId, Instant until, Instant now, String reason) {
    Instant back = null;
    for (Held h : held) {
      Instant asked = h.throttle().pushedBack(h.permit(), taskId, until, now, reason);
      if (asked != null && (back == null || asked.isBefore(back))) {
        back = asked;
      }
    }
    return back == null ? until : back;
  }

  /** The throttles that let the attempt run holding something ({@link Permit#NOTHING} aside). */
  public void throttlesHolding(Set<Throttle> into) {
    for (Held h : held) {
      if (h.permit() != Permit.NOTHING) {
        into.add(h.throttle());
      }
    }
  }
}
