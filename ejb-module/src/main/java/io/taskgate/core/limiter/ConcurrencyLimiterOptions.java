package io.taskgate.core.limiter;

/** Options of a {@link ConcurrencyLimiter}: at most {@code permitLimit} permits held at once. */
public record ConcurrencyLimiterOptions(int permitLimit) {

  public ConcurrencyLimiterOptions {
    Checks.atLeastOne("permitLimit", permitLimit);
  }
}
