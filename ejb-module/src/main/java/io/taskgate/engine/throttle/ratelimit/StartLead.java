package io.taskgate.engine.throttle.ratelimit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How long after the gate's decision a gated task it lets through starts, learnt from recent claims
 * (the time to commit a claim), so that the gate decides for the moment the task really starts.
 *
 * <p>It follows a longer time at once and a shorter one by an eighth of the difference, and starts
 * at the most, because nothing is known right after a boot and the first claims run on cold code:
 * guessing long costs the key's next slots a few ms once, guessing short costs every later start of
 * the key as much (held for spacing). The gate decides for that moment, and never for less than
 * {@link GateTuning#startLeadMin} ahead ({@link #nanos}), so that the key's reservations start from
 * when its first tasks really start: decided for the moment of the decision, a burst that starts a
 * few ms later would leave every slot after it a few ms short of the spacing the policy keeps
 * between real starts, and the start spacing would hold each of them back by as much. Thread-safe.
 */
final class StartLead {
  private final long maxLagNanos;
  private final long minNanos;
  private final AtomicLong lag;

  /** A lead tuned as the gate runs ({@link GateTuning#DEFAULT}). */
  StartLead() {
    this(GateTuning.DEFAULT);
  }

  /**
   * A lead with {@code tuning}'s {@link GateTuning#startLeadMaxLag} and {@link
   * GateTuning#startLeadMin}.
   */
  StartLead(GateTuning tuning) {
    maxLagNanos = tuning.startLeadMaxLag().toNanos();
    minNanos = tuning.startLeadMin().toNanos();
    lag = new AtomicLong(maxLagNanos);
  }

  /** How long after the gate's decision it reckons a task let through starts. */
  long nanos() {
    return Math.max(lag.get(), minNanos);
  }

  /** A claim of a task the gate let through was committed {@code nanos} after its decision. */
  void claimedAfter(long nanos) {
    long sample = Math.min(nanos, maxLagNanos);
    lag.updateAndGet(was -> sample >= was ? sample : (was * 7 + sample) / 8);
  }
}
