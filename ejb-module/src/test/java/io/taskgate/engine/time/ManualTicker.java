package io.taskgate.engine.time;

import io.taskgate.core.time.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A monotonic clock a test moves by hand; it starts at 0 and never moves by itself. */
public final class ManualTicker implements Ticker {
  private final AtomicLong nanos = new AtomicLong();

  @Override
  public long nanos() {
    return nanos.get();
  }

  /** Moves the clock forward by {@code by} (not backwards: a monotonic clock never does). */
  public ManualTicker advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("a monotonic clock does not go back: " + by);
    }
    nanos.addAndGet(by.toNanos());
    return this;
  }
}
