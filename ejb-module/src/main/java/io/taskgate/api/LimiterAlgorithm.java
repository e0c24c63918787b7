package io.taskgate.api;

/** How a {@link RateLimited} limiter counts calls. */
public enum LimiterAlgorithm {
  /**
   * Generic cell rate: {@code permits} per {@code period} evenly spaced, with up to {@code burst}
   * back to back after an idle spell (the default algorithm; its burst is 1 unless set).
   */
  GCRA,
  /** A bucket of {@code burst} tokens refilled with {@code permits} per {@code period}. */
  TOKEN_BUCKET,
  /** At most {@code permits} per fixed window of {@code period}, counted from the epoch. */
  FIXED_WINDOW,
  /**
   * At most {@code permits} per window of {@code period} sliding in {@code segments} steps (default
   * 10).
   */
  SLIDING_WINDOW,
  /** Never more than {@code permits} in any {@code period}: each call's time is kept. */
  SLIDING_LOG,
  /** At most {@code permits} calls running at once; a call's permit frees when it ends. */
  CONCURRENCY;

  /**
   * The burst of a limiter of this algorithm that sets none: 1 for {@link #GCRA} (calls spread
   * evenly over the period, one every {@code period / permits}), {@code permits} for the others (a
   * full {@link #TOKEN_BUCKET}; the windows, the log and concurrency do not use it).
   */
  public int defaultBurst(int permits) {
    return this == GCRA ? 1 : permits;
  }
}
