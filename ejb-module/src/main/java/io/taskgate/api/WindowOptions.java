package io.taskgate.api;

import java.time.Duration;

/**
 * The definition of a fixed, sliding or dynamic window: at most {@code limit} starts in any {@code
 * buckets} consecutive buckets of {@code interval / buckets} (one bucket: a fixed window). Dynamic
 * windows add a {@code capacity} shared by all their sub-windows (0: none) and, with {@code
 * minLimit} and {@code maxLimit} set, a limit per sub-window rebalanced from the capacity as
 * sub-windows become active or idle: {@code capacity / active}, the remainder to the earliest
 * active, within [minLimit, maxLimit].
 *
 * <p>The ranges are {@link SettingRanges}'s: counts up to {@link SettingRanges#MAX_COUNT}, the
 * interval up to {@link SettingRanges#MAX_PERIOD}.
 *
 * @param limit starts per interval (per sub-window for a dynamic window), 1 to {@link
 *     SettingRanges#MAX_COUNT}; ignored when rebalanced
 * @param interval the interval, a whole number of buckets of at least 1 second each, at most 366
 *     days
 * @param buckets how many buckets the interval has, 1 to {@link #MAX_BUCKETS}
 * @param capacity for a dynamic window, the most starts per interval across its sub-windows, up to
 *     {@link SettingRanges#MAX_COUNT}; 0 for none
 * @param minLimit with rebalancing, the least a sub-window gets; 0 without rebalancing
 * @param maxLimit with rebalancing, the most a sub-window gets, at least minLimit; 0 without
 *     rebalancing
 */
public record WindowOptions(
    int limit, Duration interval, int buckets, int capacity, int minLimit, int maxLimit) {

  /** The most buckets an interval may have. */
  public static final int MAX_BUCKETS = 3_600;

  /** Checks every value, naming the field and the value when one is invalid. */
  public WindowOptions {
    if (interval == null) {
      throw new IllegalArgumentException("interval must be given");
    }
    if (buckets < 1 || buckets > MAX_BUCKETS) {
      throw new IllegalArgumentException(
          "buckets must be between 1 and " + MAX_BUCKETS + ", was " + buckets);
    }
    if (interval.compareTo(SettingRanges.MAX_PERIOD) > 0) {
      throw new IllegalArgumentException("interval must be at most 366 days, was " + interval);
    }
    long millis;
    try {
      millis = interval.toMillis();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("interval is too long, was " + interval, e);
    }
    if (interval.isNegative()
        || millis < 1_000L * buckets
        || !interval.equals(Duration.ofMillis(millis))
        || millis % buckets != 0) {
      throw new IllegalArgumentException(
          "interval must be a whole number of milliseconds splitting into "
              + buckets
              + (buckets == 1 ? " bucket" : " equal buckets")
              + " of at least 1 second, was "
              + interval);
    }
    boolean rebalanced = minLimit != 0 || maxLimit != 0;
    if (capacity < 0 || capacity > SettingRanges.MAX_COUNT) {
      throw new IllegalArgumentException(
          "capacity must be between 0 (none) and " + SettingRanges.MAX_COUNT + ", was " + capacity);
    }
    if (rebalanced) {
      if (capacity == 0) {
        throw new IllegalArgumentException(
            "minLimit and maxLimit rebalance a capacity: set capacity too");
      }
      SettingRanges.count("minLimit", minLimit);
      SettingRanges.count("maxLimit", maxLimit);
      if (maxLimit < minLimit) {
        throw new IllegalArgumentException(
            "maxLimit must be at least minLimit " + minLimit + ", was " + maxLimit);
      }
      limit = maxLimit;
    } else {
      SettingRanges.count("limit", limit);
    }
  }

  /** A fixed window: {@code limit} starts per {@code interval} (at least 1 second). */
  public static WindowOptions fixed(int limit, Duration interval) {
    return new WindowOptions(limit, interval, 1, 0, 0, 0);
  }

  /** A sliding window: {@code limit} starts per {@code interval} of {@code buckets} buckets. */
  public static WindowOptions sliding(int limit, Duration interval, int buckets) {
    return new WindowOptions(limit, interval, buckets, 0, 0, 0);
  }

  /** This window with a total {@code capacity} across the sub-windows of a dynamic window. */
  public WindowOptions withCapacity(int capacity) {
    return new WindowOptions(limit, interval, buckets, capacity, minLimit, maxLimit);
  }

  /**
   * This window with sub-window limits rebalanced from {@code capacity} between {@code minLimit}
   * and {@code maxLimit}.
   */
  public WindowOptions rebalanced(int capacity, int minLimit, int maxLimit) {
    return new WindowOptions(maxLimit, interval, buckets, capacity, minLimit, maxLimit);
  }

  /** Whether sub-window limits are rebalanced from the capacity. */
  public boolean isRebalanced() {
    return maxLimit > 0;
  }

  /** The length of one bucket. */
  public Duration bucket() {
    return interval.dividedBy(buckets);
  }
}
