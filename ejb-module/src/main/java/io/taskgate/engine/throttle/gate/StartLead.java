package io.taskgate.engine.throttle.gate;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long after the gate's decision a gated task it lets through starts, learnt from recent claims
 * (the time to commit a claim), so that the gate decides for the moment the task really starts.
 *
 * <p>It follows a longer time at once and a shorter one by an eighth of the difference, and starts
 * at the most, because nothing is known right after a boot and the first claims run on cold code:
 * guessing long costs the key's next slots a few ms once, guessing short costs every later start of
 * the key as much (held for spacing). The gate decides for that moment, and never for less than
 * {@link #MIN_NANOS} ahead ({@link #nanos}), so that the key's reservations start from when its
 * first tasks really start: decided for the moment of the decision, a burst that starts a few ms
 * later would leave every slot after it a few ms short of the spacing the policy keeps between real
 * starts, and the start spacing would hold each of them back by as much. Thread-safe.
 */
final class StartLead {
  /**
   * The most a claim counts (50 ms): beyond it the database is stalling, not the usual claim. The
   * first claims after a boot took 16–44 ms on the pacing benchmark.
   */
  static final long MAX_LAG_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /**
   * The least time ahead the gate decides for (20 ms), whatever the recent claims took. The claims
   * of a burst are slowest when they are needed most: when thousands of a key's tasks come due
   * together and are gated at once, the burst's claim commits among them, several ms slower than
   * the quiet claims before it (2.8–10.6 ms later than the lag learnt, on the pacing benchmark),
   * and every later start of the key would keep that shift. Guessing long costs an idle key's
   * backlog this much once (its slots after the burst come that much later than the policy alone
   * would give); its starts are on time at those slots.
   */
  static final long MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  private final AtomicLong lag = new AtomicLong(MAX_LAG_NANOS);

  /** How long after the gate's decision it reckons a task let through starts. */
  long nanos() {
    return Math.max(lag.get(), MIN_NANOS);
  }

  /** A claim of a task the gate let through was committed {@code nanos} after its decision. */
  void claimedAfter(long nanos) {
    long sample = Math.min(nanos, MAX_LAG_NANOS);
    lag.updateAndGet(was -> sample >= was ? sample : (was * 7 + sample) / 8);
  }
}
