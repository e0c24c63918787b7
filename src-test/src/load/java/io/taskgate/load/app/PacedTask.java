package io.taskgate.load.app;

import io.taskgate.api.RateLimitedTask;

/**
 * A no-op task throttled per {@code key} (see {@link PacedHandler} for its rate).
 *
 * @param run the pacing run it belongs to
 * @param seq its number in that run's series of {@code key}
 * @param key the throttling key
 */
public record PacedTask(int run, int seq, String key) implements RateLimitedTask {
  @Override
  public String rateLimitKey() {
    return key;
  }
}
