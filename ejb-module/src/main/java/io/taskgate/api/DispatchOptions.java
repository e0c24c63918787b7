package io.taskgate.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How to dispatch one task: when, on which queue, under which key. Start from {@link #now()}.
 *
 * @param delay run no earlier than this long after dispatch (not with {@code at})
 * @param at run no earlier than this instant (not with {@code delay})
 * @param queue the queue; empty: the handler's queue. An unknown queue falls back to the default
 *     queue (logged once per name).
 * @param taskKey the task's identity: dispatching again with the same key while the first is not
 *     finished replaces its payload instead of adding a task
 */
public record DispatchOptions(
    Optional<Duration> delay,
    Optional<Instant> at,
    Optional<String> queue,
    Optional<String> taskKey) {

  /** Checks that at most one of delay and at is set, and that the delay is not negative. */
  public DispatchOptions {
    if (delay.isPresent() && at.isPresent()) {
      throw new IllegalArgumentException("Give a delay or an instant to dispatch at, not both");
    }
    delay.ifPresent(
        d -> {
          if (d.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + d);
          }
        });
    queue.ifPresent(q -> requireText("queue", q));
    taskKey.ifPresent(k -> requireText("taskKey", k));
  }

  /** Run as soon as possible on the handler's queue. */
  public static DispatchOptions now() {
    return new DispatchOptions(
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  }

  /** These options, run after {@code delay}. */
  public DispatchOptions after(Duration delay) {
    return new DispatchOptions(Optional.of(delay), Optional.empty(), queue, taskKey);
  }

  /** These options, run at {@code at}. */
  public DispatchOptions at(Instant at) {
    return new DispatchOptions(Optional.empty(), Optional.of(at), queue, taskKey);
  }

  /** These options, on {@code queue}. */
  public DispatchOptions onQueue(String queue) {
    return new DispatchOptions(delay, at, Optional.of(queue), taskKey);
  }

  /** These options, with the identity {@code taskKey}. */
  public DispatchOptions withTaskKey(String taskKey) {
    return new DispatchOptions(delay, at, queue, Optional.of(taskKey));
  }

  private static void requireText(String field, String value) {
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank, was '" + value + "'");
    }
  }
}
