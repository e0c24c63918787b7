package io.taskgate.engine.throttle;

import java.time.Instant;

/**
 * A throttle's last word on the start of an attempt it let run, given on the worker right before
 * the handler is called ({@link Throttle#startOf}): the rate limit uses it to keep a key's starts
 * apart after a late one. The engine calls, in this order and on one thread: {@link #open}, then
 * {@link #holdUntil}; if that answers an instant, the attempt waits on the timeline until then,
 * holding no worker, and {@link #close} follows; otherwise the handler's {@code onStarted} runs,
 * then {@link #starting}, and, when the handler's own code is entered, {@link #entered} and {@link
 * #close}. {@link #close} is called exactly once after {@link #open}, whatever happens.
 */
public interface StartCheck {
  /** The check of a throttle with nothing to say about starts. */
  StartCheck NONE = new StartCheck() {};

  /** Shuts out the other starts this check competes with, until {@link #close}. */
  default void open() {}

  /**
   * An attempt held back: it waits on the timeline {@code until} then, and {@code place} is the
   * throttle's note of where it stands among the held attempts, handed back at its next check.
   */
  record Hold(Instant until, long place) {}

  /**
   * When the attempt may start, if not now: null to start now (the start is counted from here),
   * otherwise until when it waits on the timeline. {@code previous}: null, or what this check
   * answered for the attempt last time it was held back.
   */
  default Hold holdUntil(Instant now, Hold previous) {
    return null;
  }

  /** The handler's {@code onStarted} ran; its own code is about to be called. */
  default void starting(Instant now) {}

  /** The handler's own code is entered now. */
  default void entered(Instant now) {}

  /** Lets the other starts in again. */
  default void close() {}
}
