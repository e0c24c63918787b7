package io.taskgate.api;

import java.time.Instant;
import java.util.UUID;

/**
 * The machine-parseable lines of the rate-limit events about one task ({@link RateLimitDeferred},
 * {@link RateLimitRejected}): one format, so that a log reader parses them alike.
 */
final class RateLimitLines {
  private RateLimitLines() {}

  /**
   * {@code Rate limit <what> task <id>: key=<key> slotUtc=<instant> policy=<taskType>}, which the
   * event's own {@code name=value} pairs follow.
   */
  static String taskLine(String what, UUID taskId, String key, Instant slotUtc, String taskType) {
    return "Rate limit "
        + what
        + " task "
        + taskId
        + ": key="
        + key
        + " slotUtc="
        + slotUtc
        + " policy="
        + taskType;
  }
}
