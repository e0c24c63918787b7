package io.taskgate.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How to dispatch one task: when, on which queue, under which key. Start from {@link #now()}.
 *
 * <p>Every value is checked here, except how far {@code at} lies from now, which the dispatcher
 * checks when it knows the time ({@link #dueAt(Instant)}). A bad value is refused with an {@link
 * InvalidDispatchOptionException} naming the option and the value.
 *
 * @param delay run no earlier than this long after dispatch (not with {@code at}); zero to {@link
 *     #MAX_DELAY}
 * @param at run no earlier than this instant (not with {@code delay}); at most {@link #MAX_DELAY}
 *     before or after the dispatch
 * @param queue the queue; empty: the handler's queue. An unknown queue falls back to the default
 *     queue (logged once per name). At most {@link #MAX_NAME_LENGTH} characters, not blank, no
 *     control characters.
 * @param taskKey the task's identity and unique key: dispatching again with the same key while the
 *     first is QUEUED replaces its payload instead of adding a task (or what the type's {@link
 *     Unique} policy says). At most {@link #MAX_NAME_LENGTH} characters, not blank, no control
 *     characters.
 * @param unique how the task is unique, for this dispatch: overrides the type's {@link Unique};
 *     empty to use it (or, without it, {@link UniquePolicy#TASK_KEY} for a task with a task key)
 */
public record DispatchOptions(
    Optional<Duration> delay,
    Optional<Instant> at,
    Optional<String> queue,
    Optional<String> taskKey,
    Optional<UniquePolicy> unique) {

  /**
   * The longest delay, and the farthest from the dispatch an instant may lie, either way: 36,500
   * days (about 100 years). A task is never due beyond it, so the engine's time arithmetic (due
   * times as nanoseconds, retry delays of up to {@link io.taskgate.core.task.RetryPolicy#MAX_DELAY}
   * on top) stays far inside a {@code long}, and the store's timestamp columns can hold every due
   * time.
   */
  public static final Duration MAX_DELAY = Duration.ofDays(36_500);

  /** The longest queue name or task key, in UTF-16 characters: what the store's columns hold. */
  public static final int MAX_NAME_LENGTH = 255;

  /** Checks every value; see the class documentation for the rules. */
  public DispatchOptions {
    if (delay.isPresent() && at.isPresent()) {
      throw new InvalidDispatchOptionException(
          "at",
          String.valueOf(at.get()),
          "Give a delay or an instant to dispatch at, not both (delay "
              + delay.get()
              + ", at "
              + at.get()
              + ")");
    }
    delay.ifPresent(
        d -> {
          if (d.isNegative()) {
            throw new InvalidDispatchOptionException(
                "delay", d.toString(), "delay must not be negative, was " + d);
          }
          if (d.compareTo(MAX_DELAY) > 0) {
            throw new InvalidDispatchOptionException(
                "delay",
                d.toString(),
                "delay must be at most " + MAX_DELAY + " (100 years), was " + d);
          }
        });
    queue.ifPresent(q -> requireName("queue", q));
    taskKey.ifPresent(k -> requireName("taskKey", k));
    Objects.requireNonNull(unique, "unique");
  }

  /** Options without a unique policy of their own. */
  public DispatchOptions(
      Optional<Duration> delay,
      Optional<Instant> at,
      Optional<String> queue,
      Optional<String> taskKey) {
    this(delay, at, queue, taskKey, Optional.empty());
  }

  /** These options, with {@code unique} as the task's unique policy for this dispatch. */
  public DispatchOptions unique(UniquePolicy unique) {
    return new DispatchOptions(delay, at, queue, taskKey, Optional.of(unique));
  }

  /** Run as soon as possible on the handler's queue. */
  public static DispatchOptions now() {
    return new DispatchOptions(
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  }

  /** These options, run after {@code delay}. */
  public DispatchOptions after(Duration delay) {
    return new DispatchOptions(Optional.of(delay), Optional.empty(), queue, taskKey, unique);
  }

  /** These options, run at {@code at}. */
  public DispatchOptions at(Instant at) {
    return new DispatchOptions(Optional.empty(), Optional.of(at), queue, taskKey, unique);
  }

  /** These options, on {@code queue}. */
  public DispatchOptions onQueue(String queue) {
    return new DispatchOptions(delay, at, Optional.of(queue), taskKey, unique);
  }

  /** These options, with the identity {@code taskKey}. */
  public DispatchOptions withTaskKey(String taskKey) {
    return new DispatchOptions(delay, at, queue, Optional.of(taskKey), unique);
  }

  /**
   * When a task dispatched at {@code now} with these options is due: {@code at}, or {@code now}
   * plus the delay, or {@code now}.
   *
   * @throws InvalidDispatchOptionException if {@code at} lies more than {@link #MAX_DELAY} before
   *     or after {@code now}
   */
  public Instant dueAt(Instant now) {
    if (at.isPresent()) {
      Instant t = at.get();
      if (t.isAfter(now.plus(MAX_DELAY)) || t.isBefore(now.minus(MAX_DELAY))) {
        throw new InvalidDispatchOptionException(
            "at",
            t.toString(),
            "at must be within " + MAX_DELAY + " (100 years) of now (" + now + "), was " + t);
      }
      return t;
    }
    return now.plus(delay.orElse(Duration.ZERO));
  }

  private static void requireName(String option, String value) {
    if (value.isBlank()) {
      throw new InvalidDispatchOptionException(
          option, value, option + " must not be blank, was '" + value + "'");
    }
    if (value.length() > MAX_NAME_LENGTH) {
      throw new InvalidDispatchOptionException(
          option,
          value,
          option
              + " must be at most "
              + MAX_NAME_LENGTH
              + " characters, was "
              + value.length()
              + " ('"
              + value.substring(0, 20)
              + "…')");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c)) {
        throw new InvalidDispatchOptionException(
            option,
            value,
            String.format(
                "%s must not contain control characters, found U+%04X at index %d",
                option, (int) c, i));
      }
    }
  }
}
