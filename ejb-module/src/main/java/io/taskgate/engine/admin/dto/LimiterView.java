package io.taskgate.engine.admin.dto;

import io.taskgate.api.LimiterStats;
import java.util.List;

/**
 * A limiter as the admin page shows it.
 *
 * @param stats its limit and counts
 * @param scope {@code local} or {@code cluster}
 * @param maxWait how long a call over the limit may wait (ISO-8601)
 * @param rejectedLastMinute calls refused in the last minute
 * @param topKeys the keys using most of their budget now, busiest first
 */
public record LimiterView(
    LimiterStats stats,
    String scope,
    String maxWait,
    long rejectedLastMinute,
    List<KeyUse> topKeys) {

  /**
   * How much of its budget a key uses now.
   *
   * @param key the key
   * @param used permits it could not take now
   * @param limit the most it could take
   */
  public record KeyUse(String key, int used, int limit) {}
}
