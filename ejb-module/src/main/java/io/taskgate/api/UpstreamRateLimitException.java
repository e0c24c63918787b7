package io.taskgate.api;

import java.time.Duration;
import java.util.Objects;

/**
 * Thrown by a handler whose upstream said "slow down" (an HTTP 429 with {@code Retry-After}, a
 * quota error): the attempt does not count, the task goes back to wait, and, for a rate-limited
 * task, its key's schedule moves so that none of the key's tasks starts before {@code retryAfter}
 * has passed; the tasks parked for the key shift with it, keeping their spacing.
 *
 * <pre>{@code
 * HttpResponse<String> response = client.send(request, BodyHandlers.ofString());
 * if (response.statusCode() == 429) {
 *   throw new UpstreamRateLimitException(Duration.ofSeconds(
 *       response.headers().firstValueAsLong("Retry-After").orElse(30)));
 * }
 * }</pre>
 */
public class UpstreamRateLimitException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The longest wait honoured: a larger {@code retryAfter} is capped to it. */
  public static final Duration MAX_RETRY_AFTER = Duration.ofDays(1);

  private final Duration retryAfter;

  /** The upstream asks to wait {@code retryAfter} (zero or more; capped to a day). */
  public UpstreamRateLimitException(Duration retryAfter) {
    this(retryAfter, "the upstream asked to slow down for " + retryAfter);
  }

  /** The same, with a message of its own. */
  public UpstreamRateLimitException(Duration retryAfter, String message) {
    super(message);
    Objects.requireNonNull(retryAfter, "retryAfter");
    if (retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must not be negative, was " + retryAfter);
    }
    this.retryAfter = retryAfter.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : retryAfter;
  }

  /** How long the upstream asked to wait. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
