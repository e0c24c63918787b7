package io.taskgate.api;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How a task is unique ({@link Unique}, or {@link DispatchOptions#unique} for one dispatch): what a
 * duplicate dispatch does, which states of the existing task make it one, and for how long after
 * the existing task was dispatched.
 *
 * @param onConflict what a duplicate dispatch does
 * @param states the states of an existing task that make a new one a duplicate; not empty
 * @param period for how long after its dispatch the existing task makes duplicates; empty for as
 *     long as it is in one of the states
 */
public record UniquePolicy(
    UniqueConflict onConflict, Set<TaskStatus> states, Optional<Duration> period) {
  /**
   * A task key without {@code @Unique}: one QUEUED task per key, a new dispatch replacing its
   * payload; once it has started, a new dispatch adds a task.
   */
  public static final UniquePolicy TASK_KEY =
      new UniquePolicy(UniqueConflict.REPLACE, Set.of(TaskStatus.QUEUED), Optional.empty());

  /** Checks the fields; keeps a copy of the states. */
  public UniquePolicy {
    Objects.requireNonNull(onConflict, "onConflict");
    Objects.requireNonNull(states, "states");
    Objects.requireNonNull(period, "period");
    if (states.isEmpty()) {
      throw new InvalidDispatchOptionException(
          "unique", "[]", "a unique policy needs at least one state of the existing task");
    }
    states = Set.copyOf(EnumSet.copyOf(states));
    period.ifPresent(
        p -> {
          if (p.isNegative() || p.isZero()) {
            throw new InvalidDispatchOptionException(
                "unique", p.toString(), "a unique policy's period must be positive, was " + p);
          }
          if (p.compareTo(DispatchOptions.MAX_DELAY) > 0) {
            throw new InvalidDispatchOptionException(
                "unique",
                p.toString(),
                "a unique policy's period must be at most "
                    + DispatchOptions.MAX_DELAY
                    + ", was "
                    + p);
          }
        });
  }

  /** {@code onConflict} while an existing task is in one of {@code states}, for ever. */
  public static UniquePolicy of(UniqueConflict onConflict, TaskStatus... states) {
    return new UniquePolicy(onConflict, Set.of(states), Optional.empty());
  }

  /** This policy, only for {@code period} after the existing task was dispatched. */
  public UniquePolicy within(Duration period) {
    return new UniquePolicy(onConflict, states, Optional.of(period));
  }

  /**
   * The policy {@code unique} declares.
   *
   * @throws IllegalArgumentException naming the attribute, if its period is not a positive ISO-8601
   *     duration or it names no state
   */
  public static UniquePolicy of(Unique unique) {
    Optional<Duration> period = Optional.empty();
    if (!unique.period().isBlank()) {
      try {
        period = Optional.of(Duration.parse(unique.period().trim()));
      } catch (java.time.format.DateTimeParseException e) {
        throw new IllegalArgumentException(
            "@Unique period '"
                + unique.period()
                + "' is not an ISO-8601 duration such as PT1H or P1D");
      }
    }
    if (unique.states().length == 0) {
      throw new IllegalArgumentException("@Unique states is empty: name at least one");
    }
    try {
      return new UniquePolicy(
          unique.onConflict(), Set.copyOf(Arrays.asList(unique.states())), period);
    } catch (InvalidDispatchOptionException e) {
      throw new IllegalArgumentException("@Unique " + e.getMessage(), e);
    }
  }

  /**
   * Whether an existing task in {@code status}, dispatched at {@code created}, makes one at {@code
   * now} a duplicate.
   */
  public boolean conflicts(TaskStatus status, java.time.Instant created, java.time.Instant now) {
    return states.contains(status) && period.map(p -> created.plus(p).isAfter(now)).orElse(true);
  }
}
