package io.taskgate.engine.admin.dto;

import java.time.Instant;
import java.util.Objects;

/**
 * One event of the monitoring stream.
 *
 * @param name what it is: {@value #DEFERRED}, {@value #FAIL_OPEN}, {@value #REJECTED} or {@value
 *     #TRANSITION}
 * @param at when it happened
 * @param data the event itself: {@link io.taskgate.api.RateLimitDeferred}, {@link
 *     io.taskgate.api.RateLimitFailOpen}, {@link io.taskgate.api.RateLimitRejected} or {@link
 *     io.taskgate.api.TaskTransition}
 */
public record MonitorEvent(String name, Instant at, Object data) {
  /** Deferrals of a key: the first of a window, or a window's summary. */
  public static final String DEFERRED = "rate-limit-deferred";

  /** A new key ran unthrottled because the key cap was reached. */
  public static final String FAIL_OPEN = "rate-limit-fail-open";

  /** A task was rejected for good (beyond the horizon, or discarded). */
  public static final String REJECTED = "rate-limit-rejected";

  /** A task changed status. */
  public static final String TRANSITION = "task-transition";

  /** Checks every part is present. */
  public MonitorEvent {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(data, "data");
  }
}
