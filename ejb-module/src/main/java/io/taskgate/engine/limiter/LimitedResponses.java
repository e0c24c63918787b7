package io.taskgate.engine.limiter;

/**
 * The limiter and key of the JAX-RS resource method the current request thread ran, so that the
 * response can tell the client its quota (the IETF RateLimit headers). Set by the interceptor,
 * taken (and cleared) by the response filter; cleared when a request starts, so that nothing of an
 * earlier request on the same thread is ever reported.
 */
public final class LimitedResponses {
  private static final ThreadLocal<Call> CURRENT = new ThreadLocal<>();

  /**
   * A limited call.
   *
   * @param limiter the limiter that decided
   * @param key the call's key
   * @param nanos the ticker's reading when it was decided
   */
  public record Call(NamedLimiter limiter, String key, long nanos) {}

  private LimitedResponses() {}

  static void record(NamedLimiter limiter, String key, long nanos) {
    CURRENT.set(new Call(limiter, key, nanos));
  }

  /** Forgets whatever an earlier request on this thread left. */
  public static void clear() {
    CURRENT.remove();
  }

  /** The limited call this request ran, if any, and forgets it. */
  public static Call take() {
    Call call = CURRENT.get();
    CURRENT.remove();
    return call;
  }
}
