package io.taskgate.core.ratelimit;

/** Turns the key a task declares into the key the limiter tracks. */
public final class RateLimitKeys {
  /** The default longest key kept as it is. */
  public static final int DEFAULT_MAX_KEY_LENGTH = 256;

  private static final String HASHED_PREFIX = "sha256:";

  private RateLimitKeys() {}

  /**
   * The key to throttle on: {@code null} when the declared key is null or empty (the task is not
   * throttled); the key itself when it has at most {@code maxKeyLength} characters; otherwise
   * {@code "sha256:"} and the hex SHA-256 of its UTF-8 bytes.
   */
  public static String normalize(String declared, int maxKeyLength) {
    if (declared == null || declared.isEmpty()) {
      return null;
    }
    if (declared.length() <= maxKeyLength) {
      return declared;
    }
    return HASHED_PREFIX + io.taskgate.core.Digests.sha256(declared);
  }
}
