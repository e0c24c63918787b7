package io.taskgate.engine.time;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A wall clock a test sets or moves by hand; it never moves by itself. */
public final class SettableClock implements InstantSource {
  private final AtomicReference<Instant> now;

  public SettableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  /** Moves the clock by {@code by} (backwards too: a wall clock may be set back). */
  public SettableClock advance(Duration by) {
    now.updateAndGet(t -> t.plus(by));
    return this;
  }

  public SettableClock set(Instant to) {
    now.set(to);
    return this;
  }
}
