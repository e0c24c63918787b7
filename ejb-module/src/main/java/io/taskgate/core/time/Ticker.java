package io.taskgate.core.time;

/**
 * A monotonic clock in nanoseconds, for intervals and the engine's timeline: only differences
 * between two readings mean anything. The engine injects one ({@code
 * io.taskgate.engine.time.Clocks} produces {@code System::nanoTime}); tests move a manual one by
 * hand.
 */
@FunctionalInterface
public interface Ticker {
  /** The current reading, in nanoseconds from an arbitrary origin. */
  long nanos();
}
