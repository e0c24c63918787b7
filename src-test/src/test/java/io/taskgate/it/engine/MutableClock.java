package io.taskgate.it.engine;

import io.taskgate.engine.ClockMoved;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine's clock in the in-container tests: real time plus an offset that a test moves, so that
 * it can jump over a rate-limit period instead of waiting for it. It replaces {@code
 * ClockProducer}'s clock wherever {@link InstantSource} is injected: it is an alternative selected
 * for the whole deployment by its {@code @Priority}, and part of the test deployment because the
 * ITs add this package. With the offset at zero (the start) it is the real clock, so tests that
 * never move it see no difference.
 *
 * <p>Real time keeps flowing, so every timer the engine arms on the managed scheduler still fires;
 * but a timer armed before a jump waits its original real delay, late by the jump in the clock's
 * terms. {@link #advance} therefore fires {@link ClockMoved}, for the beans that hold such timers
 * (the scheduler of parked tasks) to re-arm them against the new time.
 */
@ApplicationScoped
@Alternative
@Priority(Interceptor.Priority.APPLICATION + 100)
public class MutableClock implements InstantSource {
  private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

  @Inject Event<ClockMoved> moved;

  @Override
  public Instant instant() {
    return InstantSource.system().instant().plus(offset.get());
  }

  /** How far ahead of real time the clock is. */
  public Duration offset() {
    return offset.get();
  }

  /**
   * Moves the clock forward by {@code by} and tells the engine ({@link ClockMoved}). Returns the
   * new time.
   */
  public Instant advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("the clock only moves forward, was asked to move " + by);
    }
    Instant from = instant();
    offset.accumulateAndGet(by, Duration::plus);
    Instant to = from.plus(by);
    moved.fire(new ClockMoved(from, to));
    return to;
  }

  /**
   * Back to real time: a jump backwards, which limiter budgets tolerate (slots never go back) but
   * which leaves parked tasks waiting longer. Call it only when the test is done with what it
   * throttled.
   */
  public void reset() {
    Instant from = instant();
    offset.set(Duration.ZERO);
    moved.fire(new ClockMoved(from, instant()));
  }
}
