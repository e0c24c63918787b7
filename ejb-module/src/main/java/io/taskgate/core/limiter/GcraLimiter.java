package io.taskgate.core.limiter;

/**
 * Single-key GCRA (generic cell rate algorithm, virtual-scheduling form); the state is one
 * timestamp, the theoretical arrival time {@code TAT}.
 *
 * <p>With emission interval {@code T = ceil(period / permits)} and burst {@code B}, a request for
 * {@code n} permits at time {@code now} computes {@code tat' = max(TAT, now) + n * T}; it is
 * granted, and {@code TAT = tat'} stored, iff {@code tat' - B * T <= now}; otherwise it is refused
 * with retry-after {@code tat' - B * T - now}. Consequences proved in the property tests: in any
 * closed interval of length {@code W} nanos at most {@code B + floor(W / T)} permits are granted;
 * an idle limiter ({@code TAT <= now}) grants exactly {@code B} at once.
 *
 * <p>This is the math of a keyed GCRA restricted to one key; it is equivalent to a continuously
 * refilled token bucket of capacity {@code B} whose rate is one token per {@code T}. Permits are
 * consumed, not held: in a {@link ChainedLimiter} that refuses later on they stay spent.
 */
public final class GcraLimiter extends CasLimiter<GcraLimiter.Tat> {

  /** The theoretical arrival time; {@link Long#MIN_VALUE} before the first grant. */
  record Tat(long nanos) {}

  private final long emissionNanos;
  private final long burstNanos;
  private final int burst;

  public GcraLimiter(GcraLimiterOptions options) {
    super(new Tat(Long.MIN_VALUE), options.burst());
    this.emissionNanos = options.emissionIntervalNanos();
    this.burst = options.burst();
    this.burstNanos = emissionNanos * burst;
  }

  @Override
  Verdict<Tat> decide(Tat current, int permits, long nowNanos) {
    long newTat = Math.max(current.nanos(), nowNanos) + permits * emissionNanos;
    long allowAt = newTat - burstNanos;
    if (allowAt <= nowNanos) {
      return Verdict.grant(new Tat(newTat));
    }
    return Verdict.refuse(
        allowAt - nowNanos,
        "rate exceeded: "
            + permits
            + " requested, "
            + available(current, nowNanos)
            + " of a burst of "
            + burst
            + " available");
  }

  @Override
  int available(Tat current, long nowNanos) {
    long backlog = Math.max(current.nanos(), nowNanos) - nowNanos;
    long free = (burstNanos - backlog) / emissionNanos;
    return (int) Math.max(0, Math.min(burst, free));
  }

  @Override
  boolean idle(Tat current, long nowNanos) {
    return current.nanos() <= nowNanos;
  }
}
