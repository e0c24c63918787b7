package io.taskgate.engine.limiter;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.QueueOrder;
import io.taskgate.api.RateLimited;
import io.taskgate.core.limiter.ConcurrencyLimiter;
import io.taskgate.core.limiter.ConcurrencyLimiterOptions;
import io.taskgate.core.limiter.FixedWindowLimiter;
import io.taskgate.core.limiter.FixedWindowLimiterOptions;
import io.taskgate.core.limiter.GcraLimiter;
import io.taskgate.core.limiter.GcraLimiterOptions;
import io.taskgate.core.limiter.RateLimiter;
import io.taskgate.core.limiter.SlidingLogLimiter;
import io.taskgate.core.limiter.SlidingLogLimiterOptions;
import io.taskgate.core.limiter.SlidingWindowLimiter;
import io.taskgate.core.limiter.SlidingWindowLimiterOptions;
import io.taskgate.core.limiter.TokenBucketLimiter;
import io.taskgate.core.limiter.TokenBucketLimiterOptions;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * What one named limiter is: its algorithm and numbers, from a {@link RateLimited} annotation with
 * the MicroProfile Config keys {@code taskgate.limiter.<name>.<option>} over it. Built only valid:
 * every limiter it makes is accepted by its algorithm.
 *
 * @param name the limiter's name
 * @param algorithm how calls are counted
 * @param permits calls per period per key (at once, for a concurrency limiter)
 * @param period the period (one second for a concurrency limiter, which does not use it)
 * @param burst GCRA's burst, the token bucket's capacity; {@code permits} for the others
 * @param segments a sliding window's segments (1 for the others)
 * @param maxKeys the most keys tracked at once
 * @param maxWait how long a call over the limit may wait (zero: it is refused at once)
 * @param queueLimit the most calls of one key waiting at once
 * @param queueOrder which waiting call goes first
 * @param cluster whether the budgets are kept for the whole cluster (the engine's keyed limiter:
 *     the data grid when it runs on one) rather than in this instance's memory
 */
public record LimitSpec(
    String name,
    LimiterAlgorithm algorithm,
    int permits,
    Duration period,
    int burst,
    int segments,
    int maxKeys,
    Duration maxWait,
    int queueLimit,
    QueueOrder queueOrder,
    boolean cluster) {

  /** The config prefix of a limiter's options. */
  public static final String PREFIX = "taskgate.limiter.";

  /** The default of {@code max-keys}. */
  public static final int DEFAULT_MAX_KEYS = 10_000;

  /** The default of a sliding window's {@code segments}. */
  public static final int DEFAULT_SEGMENTS = 10;

  public LimitSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(period, "period");
    if (permits < 1) {
      throw new IllegalArgumentException("permits must be at least 1, was " + permits);
    }
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period must be positive, was " + period);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, was " + burst);
    }
    newLimiter(algorithm, permits, period, burst, segments); // each algorithm checks the rest
    if (maxKeys < 1) {
      throw new IllegalArgumentException("max-keys must be at least 1, was " + maxKeys);
    }
    Objects.requireNonNull(maxWait, "maxWait");
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("max-wait must not be negative, was " + maxWait);
    }
    if (queueLimit < 0) {
      throw new IllegalArgumentException("queue-limit must be at least 0, was " + queueLimit);
    }
    Objects.requireNonNull(queueOrder, "queueOrder");
    if (cluster && algorithm != LimiterAlgorithm.GCRA) {
      throw new IllegalArgumentException(
          "scope cluster needs algorithm gcra (the cluster keeps GCRA budgets), was "
              + algorithm.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
  }

  /** This spec with only the numbers of a limit changed. */
  public LimitSpec withLimit(int permits, Duration period, int burst) {
    return new LimitSpec(
        name,
        algorithm,
        permits,
        period,
        burst,
        segments,
        maxKeys,
        maxWait,
        queueLimit,
        queueOrder,
        cluster);
  }

  /** Whether a call over the limit may wait. */
  public boolean waits() {
    return !maxWait.isZero() && queueLimit > 0;
  }

  /**
   * The spec of limiter {@code name}: {@code annotation}'s values under {@code config}'s ({@code
   * option -> value or null}, options as in {@code taskgate.limiter.<name>.<option>}).
   *
   * @throws IllegalArgumentException naming the option, the value and where it came from
   */
  public static LimitSpec of(String name, RateLimited annotation, Function<String, String> config) {
    LimiterAlgorithm algorithm =
        option(
            name,
            "algorithm",
            config,
            annotation.algorithm(),
            v -> constant(LimiterAlgorithm.class, v));
    int permits = option(name, "permits", config, annotation.permits(), LimitSpec::integer);
    if (permits == 0) {
      throw new IllegalArgumentException(
          "limiter "
              + name
              + " has no permits: set permits on @RateLimited or "
              + PREFIX
              + name
              + ".permits");
    }
    Duration period =
        option(name, "period", config, parse(name, "period", annotation.period()), Duration::parse);
    int burst = option(name, "burst", config, annotation.burst(), LimitSpec::integer);
    int segments =
        option(
            name,
            "segments",
            config,
            algorithm == LimiterAlgorithm.SLIDING_WINDOW ? DEFAULT_SEGMENTS : 1,
            LimitSpec::integer);
    int maxKeys = option(name, "max-keys", config, DEFAULT_MAX_KEYS, LimitSpec::integer);
    Duration maxWait =
        option(
            name,
            "max-wait",
            config,
            parse(name, "maxWait", annotation.maxWait()),
            Duration::parse);
    int queueLimit =
        option(name, "queue-limit", config, annotation.queueLimit(), LimitSpec::integer);
    boolean cluster =
        option(name, "scope", config, "local", v -> constant(Scope.class, v).name())
            .equals(Scope.CLUSTER.name());
    QueueOrder queueOrder =
        option(
            name,
            "queue-order",
            config,
            annotation.queueOrder(),
            v -> constant(QueueOrder.class, v));
    try {
      return new LimitSpec(
          name,
          algorithm,
          permits,
          period,
          burst == RateLimited.BURST_OF_PERMITS ? permits : burst,
          segments,
          maxKeys,
          maxWait,
          queueLimit,
          queueOrder,
          cluster);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("limiter " + name + ": " + e.getMessage(), e);
    }
  }

  private static Duration parse(String name, String option, String value) {
    try {
      return Duration.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "limiter "
              + name
              + ": @RateLimited "
              + option
              + " = '"
              + value
              + "' is not an ISO-8601 duration such as PT1S",
          e);
    }
  }

  /** {@code token-bucket} or {@code TOKEN_BUCKET} as the constant; else the error lists them. */
  private static <E extends Enum<E>> E constant(Class<E> type, String value) {
    String wanted = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equals(wanted)) {
        return constant;
      }
    }
    throw new IllegalArgumentException(
        "expected one of "
            + Arrays.stream(type.getEnumConstants())
                .map(c -> c.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .toList());
  }

  private static int integer(String value) {
    return Integer.parseInt(value.trim());
  }

  private static <T> T option(
      String name,
      String option,
      Function<String, String> config,
      T fallback,
      Function<String, T> parser) {
    String value = config.apply(option);
    if (value == null) {
      return fallback;
    }
    try {
      return parser.apply(value);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          PREFIX + name + "." + option + " = '" + value + "' is not valid: " + e.getMessage(), e);
    }
  }

  /** Where a limiter's budgets live ({@code taskgate.limiter.<name>.scope}). */
  enum Scope {
    /** In this instance's memory (the default). */
    LOCAL,
    /** With the engine's keyed limiter: on the data grid, one budget for the cluster. */
    CLUSTER
  }

  /** A new limiter of this spec, with all its permits available. */
  public RateLimiter newLimiter() {
    return newLimiter(algorithm, permits, period, burst, segments);
  }

  private static RateLimiter newLimiter(
      LimiterAlgorithm algorithm, int permits, Duration period, int burst, int segments) {
    return switch (algorithm) {
      case GCRA -> new GcraLimiter(new GcraLimiterOptions(permits, period, burst));
      case TOKEN_BUCKET ->
          new TokenBucketLimiter(new TokenBucketLimiterOptions(burst, permits, period));
      case FIXED_WINDOW -> new FixedWindowLimiter(new FixedWindowLimiterOptions(permits, period));
      case SLIDING_WINDOW ->
          new SlidingWindowLimiter(new SlidingWindowLimiterOptions(permits, period, segments));
      case SLIDING_LOG -> new SlidingLogLimiter(new SlidingLogLimiterOptions(permits, period));
      case CONCURRENCY -> new ConcurrencyLimiter(new ConcurrencyLimiterOptions(permits));
    };
  }

  /** The quota in the sense of the IETF {@code RateLimit-Policy} header: permits per window. */
  public int quota() {
    return algorithm == LimiterAlgorithm.TOKEN_BUCKET ? burst : permits;
  }
}
