package io.taskgate.api;

import java.time.Duration;
import java.util.Optional;

/**
 * A call refused by a {@link RateLimited} limiter: it did not run. Carries the limiter's name, the
 * call's key and, when the limiter can tell, how long until the same call would be allowed.
 *
 * <p>The message is one line: {@code Rate limit exceeded: limiter=<name> key=<key>
 * retryAfter=<ISO-8601 or unknown> reason=<the limiter's words>}.
 */
public class RateLimitExceededException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String limiter;
  private final String key;
  private final Duration retryAfter;
  private final String reason;

  /**
   * @param limiter the limiter's name
   * @param key the call's key ({@code ""} when the limiter is not keyed)
   * @param retryAfter how long until the call would be allowed; null when unknown
   * @param reason why, in the limiter's words
   */
  public RateLimitExceededException(
      String limiter, String key, Duration retryAfter, String reason) {
    super(
        "Rate limit exceeded: limiter="
            + limiter
            + " key="
            + key
            + " retryAfter="
            + (retryAfter == null ? "unknown" : retryAfter.toString())
            + " reason="
            + reason,
        null,
        false,
        false); // thrown on every refusal: no stack trace to fill
    this.limiter = limiter;
    this.key = key;
    this.retryAfter = retryAfter;
    this.reason = reason;
  }

  /** The limiter's name. */
  public String limiter() {
    return limiter;
  }

  /** The call's key; empty when the limiter has one budget for all calls. */
  public String key() {
    return key;
  }

  /** How long until the same call would be allowed, when the limiter can tell. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** Why the call was refused, in the limiter's words. */
  public String reason() {
    return reason;
  }
}
