package io.taskgate.core.limiter;

import io.taskgate.core.ratelimit.Gcra;

/**
 * Single-key GCRA (generic cell rate algorithm, virtual-scheduling form) on {@link Gcra}'s
 * transition; the state is one timestamp, the theoretical arrival time {@code TAT}.
 *
 * <p>With emission interval {@code T = ceil(period / permits)} and burst {@code B} (tolerance
 * {@code τ = (B − 1) · T}), a request for {@code n} permits at {@code now} is granted, and {@code
 * TAT = max(TAT, now) + n · T} stored, iff it conforms ({@code max(TAT, now) + n · T − B · T ≤
 * now}); otherwise it is refused, nothing spent, with the exact retry-after. Consequences proved in
 * the property tests: in any closed interval of length {@code W} nanos at most {@code B + floor(W /
 * T)} permits are granted; an idle limiter ({@code TAT <= now}) grants exactly {@code B} at once.
 *
 * <p>This is the math of a keyed GCRA restricted to one key; it is equivalent to a continuously
 * refilled token bucket of capacity {@code B} whose rate is one token per {@code T}. Permits are
 * consumed, not held: in a {@link ChainedLimiter} that refuses later on they stay spent.
 */
public final class GcraLimiter extends CasLimiter<GcraLimiter.Tat> {

  /** The theoretical arrival time; {@link Gcra#NEW_KEY} before the first grant. */
  record Tat(long nanos) {}

  private final long emissionNanos;
  private final long toleranceNanos;
  private final int burst;

  public GcraLimiter(GcraLimiterOptions options) {
    super(new Tat(Gcra.NEW_KEY), options.burst());
    this.emissionNanos = options.emissionIntervalNanos();
    this.burst = options.burst();
    this.toleranceNanos = emissionNanos * (burst - 1);
  }

  @Override
  Verdict<Tat> decide(Tat current, int permits, long nowNanos) {
    long from = Gcra.from(current.nanos(), nowNanos);
    long allowAt = Gcra.slot(from, permits, emissionNanos, toleranceNanos);
    if (Gcra.conforms(allowAt, nowNanos)) {
      return Verdict.grant(new Tat(Gcra.spend(from, permits, emissionNanos)));
    }
    return Verdict.refuse(
        Gcra.retryAfter(allowAt, nowNanos),
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
    return Gcra.available(current.nanos(), nowNanos, emissionNanos, toleranceNanos, burst);
  }

  @Override
  boolean idle(Tat current, long nowNanos) {
    return current.nanos() <= nowNanos;
  }
}
