package io.taskgate.core.limiter;

/**
 * A token bucket with continuous replenishment: the bucket starts full with {@code capacity} tokens
 * and regains {@code tokensPerPeriod} tokens per {@code period} spread evenly over time, never
 * above {@code capacity}; a request takes one token per permit.
 *
 * <p>Continuous refill is computed exactly in integers: the state keeps whole tokens plus the
 * fractional token as a numerator over {@code periodNanos}, so no rounding drift accumulates; while
 * the bucket is full nothing accrues, not even a fraction. The consequence, proved in the property
 * tests: in any closed interval of length {@code W} nanos at most {@code capacity + floor(W *
 * tokensPerPeriod / periodNanos)} permits are granted.
 *
 * <p>Permits are consumed, not held: closing a lease gives nothing back, so a {@link
 * ChainedLimiter} that refuses after this limiter granted leaves the tokens spent.
 */
public final class TokenBucketLimiter extends CasLimiter<TokenBucketLimiter.Bucket> {

  private static final long UNSET = Long.MIN_VALUE;

  /**
   * Bucket state at {@code lastNanos}: {@code tokens} whole tokens plus {@code carry / periodNanos}
   * of a token ({@code 0 <= carry < periodNanos}).
   */
  record Bucket(long tokens, long carry, long lastNanos) {}

  private final long capacity;
  private final long tokensPerPeriod;
  private final long periodNanos;

  public TokenBucketLimiter(TokenBucketLimiterOptions options) {
    super(new Bucket(options.capacity(), 0L, UNSET), options.capacity());
    this.capacity = options.capacity();
    this.tokensPerPeriod = options.tokensPerPeriod();
    this.periodNanos = options.periodNanos();
  }

  private Bucket refill(Bucket bucket, long nowNanos) {
    if (bucket.lastNanos() == UNSET) {
      return new Bucket(bucket.tokens(), bucket.carry(), nowNanos);
    }
    long elapsed = nowNanos - bucket.lastNanos();
    if (elapsed <= 0) {
      return bucket;
    }
    long missing = capacity - bucket.tokens();
    long periods = elapsed / periodNanos;
    if (missing <= 0 || periods >= missing) {
      return new Bucket(capacity, 0L, nowNanos);
    }
    // periods < missing <= capacity, so periods * tokensPerPeriod < 2^62; the options guarantee
    // carry + rest * tokensPerPeriod < periodNanos * (tokensPerPeriod + 1) fits in a long.
    long fraction = bucket.carry() + (elapsed % periodNanos) * tokensPerPeriod;
    long tokens = bucket.tokens() + periods * tokensPerPeriod + fraction / periodNanos;
    if (tokens >= capacity) {
      return new Bucket(capacity, 0L, nowNanos);
    }
    return new Bucket(tokens, fraction % periodNanos, nowNanos);
  }

  @Override
  Verdict<Bucket> decide(Bucket current, int permits, long nowNanos) {
    Bucket bucket = refill(current, nowNanos);
    if (bucket.tokens() >= permits) {
      return Verdict.grant(
          new Bucket(bucket.tokens() - permits, bucket.carry(), bucket.lastNanos()));
    }
    // Wait t such that tokens + (carry + t * rate) / periodNanos >= permits, where deficit
    // d = a * rate + b gives t = a * periodNanos + ceil((b * periodNanos - carry) / rate).
    long deficit = permits - bucket.tokens();
    long wholePeriods = deficit / tokensPerPeriod;
    long rest = deficit % tokensPerPeriod;
    long waitNanos =
        Checks.saturatedAdd(
            Checks.saturatedMultiply(wholePeriods, periodNanos),
            Checks.ceilDiv(rest * periodNanos - bucket.carry(), tokensPerPeriod));
    // A clock reading older than lastNanos is answered from lastNanos.
    long retryAfter = Checks.saturatedAdd(waitNanos, Math.max(0, bucket.lastNanos() - nowNanos));
    return Verdict.refuse(
        retryAfter,
        "token bucket has "
            + bucket.tokens()
            + " of "
            + capacity
            + " tokens, "
            + permits
            + " requested");
  }

  @Override
  int available(Bucket current, long nowNanos) {
    return (int) refill(current, nowNanos).tokens();
  }

  @Override
  boolean idle(Bucket current, long nowNanos) {
    return refill(current, nowNanos).tokens() >= capacity;
  }
}
