package io.taskgate.core.limiter;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The shared skeleton of the self-replenishing limiters: a pure decision function over an immutable
 * state, committed with a compare-and-set loop. A refusal commits nothing.
 *
 * @param <S> the immutable state; {@link #decide} must return a new instance on a grant
 */
abstract class CasLimiter<S> implements RateLimiter {

  /** A decision: {@code next} is the state to commit on a grant, {@code null} on a refusal. */
  record Verdict<S>(S next, long retryAfterNanos, String reason) {

    static <S> Verdict<S> grant(S next) {
      return new Verdict<>(next, 0L, null);
    }

    static <S> Verdict<S> refuse(long retryAfterNanos, String reason) {
      return new Verdict<>(null, retryAfterNanos, reason);
    }

    boolean granted() {
      return next != null;
    }
  }

  private final AtomicReference<S> state;
  private final int permitLimit;

  CasLimiter(S initial, int permitLimit) {
    this.state = new AtomicReference<>(initial);
    this.permitLimit = permitLimit;
  }

  /** Decides a request for {@code permits >= 1} at {@code nowNanos} against {@code current}. */
  abstract Verdict<S> decide(S current, int permits, long nowNanos);

  abstract int available(S current, long nowNanos);

  abstract boolean idle(S current, long nowNanos);

  @Override
  public final RateLimitLease tryAcquire(int permits, long nowNanos) {
    Checks.permits(permits, permitLimit, this);
    if (permits == 0) {
      return answer(0, decide(state.get(), 1, nowNanos));
    }
    while (true) {
      S current = state.get();
      Verdict<S> verdict = decide(current, permits, nowNanos);
      if (!verdict.granted()) {
        return answer(permits, verdict);
      }
      if (state.compareAndSet(current, verdict.next())) {
        return RateLimitLease.acquired(permits);
      }
    }
  }

  @Override
  public final RateLimitLease probe(int permits, long nowNanos) {
    Checks.permits(permits, permitLimit, this);
    return answer(permits, decide(state.get(), Math.max(1, permits), nowNanos));
  }

  private static RateLimitLease answer(int permits, Verdict<?> verdict) {
    return verdict.granted()
        ? RateLimitLease.acquired(permits)
        : RateLimitLease.rejected(permits, verdict.retryAfterNanos(), verdict.reason());
  }

  @Override
  public final int availablePermits(long nowNanos) {
    return available(state.get(), nowNanos);
  }

  @Override
  public final int permitLimit() {
    return permitLimit;
  }

  @Override
  public final boolean isIdle(long nowNanos) {
    return idle(state.get(), nowNanos);
  }
}
