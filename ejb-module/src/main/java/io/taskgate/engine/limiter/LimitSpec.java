package io.taskgate.engine.limiter;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.QueueOrder;
import io.taskgate.api.RateLimited;
import io.taskgate.core.limit.Limit;
import io.taskgate.core.limit.LimitSource;
import io.taskgate.core.limit.LimitText;
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
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * What one named limiter is: its algorithm and {@link Limit}, and how it keeps keys and waiting
 * calls; from a {@link RateLimited} annotation with the MicroProfile Config keys {@code
 * taskgate.limiter.<name>.<option>} over it, both read by {@link LimitText}. Built only valid:
 * every limiter it makes is accepted by its algorithm.
 *
 * @param name the limiter's name
 * @param algorithm how calls are counted
 * @param limit calls per period per key (at once, for a concurrency limiter, which uses neither the
 *     period, one second by default, nor the burst); the burst is GCRA's burst, the token bucket's
 *     capacity, unused by the others
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
    Limit limit,
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
    Objects.requireNonNull(limit, "limit");
    newLimiter(algorithm, limit, segments); // each algorithm checks the rest
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

  /** A spec with its limit's numbers given one by one. */
  public LimitSpec(
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
    this(
        name,
        algorithm,
        new Limit(permits, period, burst),
        segments,
        maxKeys,
        maxWait,
        queueLimit,
        queueOrder,
        cluster);
  }

  /** Calls per period per key (at once, for a concurrency limiter). */
  public int permits() {
    return limit.permits();
  }

  /** The limit's period. */
  public Duration period() {
    return limit.period();
  }

  /** GCRA's burst, the token bucket's capacity. */
  public int burst() {
    return limit.burst();
  }

  /** This spec with another limit, the rest kept. */
  public LimitSpec withLimit(Limit limit) {
    return new LimitSpec(
        name, algorithm, limit, segments, maxKeys, maxWait, queueLimit, queueOrder, cluster);
  }

  /** This spec with only the numbers of its limit changed. */
  public LimitSpec withLimit(int permits, Duration period, int burst) {
    return withLimit(new Limit(permits, period, burst));
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
    LimitText text =
        LimitText.of(annotationSource(name), option -> annotationText(annotation, option))
            .over(LimitSource.config(PREFIX + name + "."), config);
    LimiterAlgorithm algorithm =
        text.constant("algorithm", LimiterAlgorithm.class, annotation.algorithm());
    int permits = text.integer(Limit.PERMITS, annotation.permits());
    if (permits == 0) {
      throw new IllegalArgumentException(
          "limiter "
              + name
              + " has no permits: set permits on @RateLimited or "
              + PREFIX
              + name
              + ".permits");
    }
    Duration period = text.duration(Limit.PERIOD, "PT1S");
    int burst = text.integer(Limit.BURST, annotation.burst());
    int segments =
        text.integer(
            "segments", algorithm == LimiterAlgorithm.SLIDING_WINDOW ? DEFAULT_SEGMENTS : 1);
    int maxKeys = text.integer("max-keys", DEFAULT_MAX_KEYS);
    Duration maxWait = text.duration("max-wait", "PT1S");
    int queueLimit = text.integer("queue-limit", annotation.queueLimit());
    boolean cluster = text.constant("scope", Scope.class, Scope.LOCAL) == Scope.CLUSTER;
    QueueOrder queueOrder = text.constant("queue-order", QueueOrder.class, annotation.queueOrder());
    try {
      return new LimitSpec(
          name,
          algorithm,
          new Limit(
              permits,
              period,
              burst == RateLimited.DEFAULT_BURST ? algorithm.defaultBurst(permits) : burst),
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

  /** The text attributes of {@code annotation} by option: its period and max-wait. */
  private static String annotationText(RateLimited annotation, String option) {
    return switch (option) {
      case Limit.PERIOD -> annotation.period();
      case "max-wait" -> annotation.maxWait();
      default -> null;
    };
  }

  /**
   * {@code @RateLimited}'s attributes of limiter {@code name}: {@code limiter quotes: @RateLimited
   * maxWait = 'soon' is not an ISO-8601 duration such as PT1S}.
   */
  private static LimitSource annotationSource(String name) {
    return (option, value, expected) ->
        "limiter "
            + name
            + ": @RateLimited "
            + (option.equals("max-wait") ? "maxWait" : option)
            + " = '"
            + value
            + "' is not "
            + expected;
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
    return newLimiter(algorithm, limit, segments);
  }

  private static RateLimiter newLimiter(LimiterAlgorithm algorithm, Limit limit, int segments) {
    return switch (algorithm) {
      case GCRA -> new GcraLimiter(GcraLimiterOptions.of(limit));
      case TOKEN_BUCKET -> new TokenBucketLimiter(TokenBucketLimiterOptions.of(limit));
      case FIXED_WINDOW -> new FixedWindowLimiter(FixedWindowLimiterOptions.of(limit));
      case SLIDING_WINDOW ->
          new SlidingWindowLimiter(SlidingWindowLimiterOptions.of(limit, segments));
      case SLIDING_LOG -> new SlidingLogLimiter(SlidingLogLimiterOptions.of(limit));
      case CONCURRENCY -> new ConcurrencyLimiter(ConcurrencyLimiterOptions.of(limit));
    };
  }

  /** The quota in the sense of the IETF {@code RateLimit-Policy} header: permits per window. */
  public int quota() {
    return algorithm == LimiterAlgorithm.TOKEN_BUCKET ? burst() : permits();
  }
}
