package io.taskgate.engine.trace;

import io.taskgate.store.StoredTask;
import java.time.Instant;
import java.util.UUID;

/** What {@link TaskTracing} asks of a tracer when tracing is on ({@code OtelSpans}). */
interface Spans {

  /** A dispatch's span named {@code name}, started now in the current trace. */
  TaskTracing.Dispatch dispatching(String name, String type, int count);

  /**
   * The span of {@code task}'s wait for a throttle before its attempt {@code attempt}, ended now.
   */
  void waited(StoredTask task, int attempt, Waiting waiting);

  /** The span of {@code task}'s attempt (its number {@code task.attempt()}), started now. */
  TaskTracing.Attempt attempt(StoredTask task);

  /**
   * A task's wait for throttle {@code throttle} since {@code since}, as last decided: its key (or
   * the resource it waits for), the slot it waits until (or null) and why.
   */
  record Waiting(
      UUID task, String throttle, String key, Instant slot, String reason, Instant since) {}
}
