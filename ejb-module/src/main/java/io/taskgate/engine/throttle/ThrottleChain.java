package io.taskgate.engine.throttle;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The throttles of one task type, acquired together, all or nothing: in the global order (ascending
 * {@link Throttle#order}, then {@link Throttle#name}); the first that does not answer {@link
 * ThrottleDecision.Run} decides for the attempt, and every permit taken before it is given back at
 * once ({@link AttemptEnd#NOT_STARTED}). A throttle that throws gives back the same way, then the
 * exception goes on; the throttles after one that refused are told they were passed over ({@link
 * Throttle#passedOver}). A budget spent by time ({@link Throttle#BUDGETS}), which cannot give back,
 * is asked last and only when every other throttle let the attempt run, so what it spends is spent
 * on an attempt that runs; a chain has at most one. Immutable and thread-safe.
 */
public final class ThrottleChain {
  private static final Comparator<Throttle> ORDER =
      Comparator.comparingInt(Throttle::order).thenComparing(Throttle::name);

  /** The chain of a task type without throttles: every attempt is admitted, holding nothing. */
  public static final ThrottleChain NONE = new ThrottleChain(List.of());

  private static final Admission.Admitted ADMITTED_HOLDING_NOTHING =
      new Admission.Admitted(Permits.NONE, null);

  private final List<Throttle> throttles;

  private ThrottleChain(List<Throttle> throttles) {
    this.throttles = throttles;
  }

  /**
   * The chain of {@code throttles}, put in the global order; their names must differ, and at most
   * one may be a budget spent by time (of order {@link Throttle#BUDGETS} or after): a second one
   * refusing after the first spent would lose the first's budget.
   */
  public static ThrottleChain of(List<? extends Throttle> throttles) {
    List<Throttle> sorted = new ArrayList<>(throttles);
    sorted.forEach(t -> Objects.requireNonNull(t, "throttle"));
    sorted.sort(ORDER);
    Set<String> names = new HashSet<>();
    String spentByTime = null;
    for (Throttle throttle : sorted) {
      if (!names.add(throttle.name())) {
        throw new IllegalArgumentException("two throttles are named " + throttle.name());
      }
      if (throttle.order() >= Throttle.BUDGETS) {
        if (spentByTime != null) {
          throw new IllegalArgumentException(
              "two budgets spent by time, "
                  + spentByTime
                  + " and "
                  + throttle.name()
                  + ", cannot be acquired all or nothing: at most one throttle of order "
                  + Throttle.BUDGETS
                  + " or after");
        }
        spentByTime = throttle.name();
      }
    }
    return sorted.isEmpty() ? NONE : new ThrottleChain(List.copyOf(sorted));
  }

  /** The throttles, in the order they are acquired. */
  public List<Throttle> throttles() {
    return throttles;
  }

  /** Acquires every throttle for {@code attempt}, or none (see the class documentation). */
  public Admission acquire(ThrottledAttempt attempt, Instant now) {
    if (throttles.isEmpty()) {
      return ADMITTED_HOLDING_NOTHING; // the common case allocates nothing
    }
    List<Permits.Held> held = new ArrayList<>(throttles.size());
    Instant startAt = null;
    for (int i = 0; i < throttles.size(); i++) {
      Throttle throttle = throttles.get(i);
      ThrottleDecision decision;
      try {
        decision = throttle.acquire(attempt, now);
      } catch (RuntimeException e) {
        new Permits(held).release(AttemptEnd.NOT_STARTED);
        throw e;
      }
      Objects.requireNonNull(decision, () -> throttle.name() + " answered no decision");
      if (decision instanceof ThrottleDecision.Run run) {
        held.add(new Permits.Held(throttle, run.permit()));
        if (run.startAt() != null && (startAt == null || run.startAt().isAfter(startAt))) {
          startAt = run.startAt();
        }
        continue;
      }
      Set<String> freed = new Permits(held).release(AttemptEnd.NOT_STARTED);
      for (Throttle later : throttles.subList(i + 1, throttles.size())) {
        later.passedOver(attempt, now);
      }
      return new Admission.Refused(throttle.name(), decision, freed);
    }
    return new Admission.Admitted(new Permits(held), startAt);
  }

  /** What the chain answered. */
  public sealed interface Admission {
    /**
     * Every throttle let the attempt run: now ({@code startAt} null) or at the latest slot one of
     * them reserved; {@code permits} are given back when it ends.
     */
    record Admitted(Permits permits, Instant startAt) implements Admission {}

    /**
     * Throttle {@code by} decided otherwise ({@code decision}); what the others had granted is
     * given back already, freeing {@code freed}.
     */
    record Refused(String by, ThrottleDecision decision, Set<String> freed) implements Admission {
      public Refused {
        freed = Set.copyOf(new LinkedHashSet<>(freed));
      }
    }
  }
}
