package io.taskgate.core.limiter;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The answer of a {@link RateLimiter}: whether the permits were acquired and, when refused, the
 * metadata the limiter could give (retry-after, reason phrase).
 *
 * <p>Closing an acquired lease runs its release action exactly once, however often and from however
 * many threads {@link #close()} is called; closing a refused lease does nothing. Leases are meant
 * for try-with-resources.
 */
public final class RateLimitLease implements AutoCloseable {

  private static final long NO_RETRY_AFTER = -1L;
  private static final Runnable NOTHING = () -> {};

  private final boolean acquired;
  private final int permits;
  private final long retryAfterNanos;
  private final String reason;
  private final AtomicReference<Runnable> release;

  private RateLimitLease(
      boolean acquired, int permits, long retryAfterNanos, String reason, Runnable release) {
    if (permits < 0) {
      throw new IllegalArgumentException("permits must be >= 0, was " + permits);
    }
    this.acquired = acquired;
    this.permits = permits;
    this.retryAfterNanos = retryAfterNanos;
    this.reason = reason;
    this.release = new AtomicReference<>(release);
  }

  /** Leases whose close does nothing, shared: they hold nothing a close could change. */
  private static final RateLimitLease[] ACQUIRED = new RateLimitLease[17];

  static {
    for (int i = 0; i < ACQUIRED.length; i++) {
      ACQUIRED[i] = new RateLimitLease(true, i, NO_RETRY_AFTER, null, NOTHING);
    }
  }

  /**
   * An acquired lease whose close does nothing (rate limiters replenish by themselves); for up to
   * 16 permits one shared instance per count, since closing it changes nothing.
   */
  public static RateLimitLease acquired(int permits) {
    if (permits >= 0 && permits < ACQUIRED.length) {
      return ACQUIRED[permits];
    }
    return new RateLimitLease(true, permits, NO_RETRY_AFTER, null, NOTHING);
  }

  /** An acquired lease that runs {@code release} once, on the first {@link #close()}. */
  public static RateLimitLease acquired(int permits, Runnable release) {
    return new RateLimitLease(
        true, permits, NO_RETRY_AFTER, null, Objects.requireNonNull(release, "release"));
  }

  /** A refused lease without retry-after: the limiter cannot tell when permits come back. */
  public static RateLimitLease rejected(int permits, String reason) {
    return new RateLimitLease(false, permits, NO_RETRY_AFTER, requireReason(reason), NOTHING);
  }

  /**
   * A refused lease: the same request succeeds at the earliest {@code retryAfterNanos} after the
   * time of the refusal, if nothing else takes the permits meanwhile.
   */
  public static RateLimitLease rejected(int permits, long retryAfterNanos, String reason) {
    if (retryAfterNanos < 0) {
      throw new IllegalArgumentException("retryAfterNanos must be >= 0, was " + retryAfterNanos);
    }
    return new RateLimitLease(false, permits, retryAfterNanos, requireReason(reason), NOTHING);
  }

  private static String requireReason(String reason) {
    return Objects.requireNonNull(reason, "reason");
  }

  public boolean isAcquired() {
    return acquired;
  }

  /** The number of permits asked for (held by this lease when acquired). */
  public int permits() {
    return permits;
  }

  public OptionalLong retryAfterNanos() {
    return retryAfterNanos == NO_RETRY_AFTER
        ? OptionalLong.empty()
        : OptionalLong.of(retryAfterNanos);
  }

  public Optional<Duration> retryAfter() {
    return retryAfterNanos == NO_RETRY_AFTER
        ? Optional.empty()
        : Optional.of(Duration.ofNanos(retryAfterNanos));
  }

  /** Why the lease was refused, in words a log reader understands; empty when acquired. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  /** Releases the permits of an acquired lease; idempotent and thread safe. */
  @Override
  public void close() {
    Runnable action = release.get();
    if (action == null || action == NOTHING) {
      return; // nothing to give back: no write, so shared leases stay read-only
    }
    if (release.compareAndSet(action, null)) {
      action.run();
    }
  }

  @Override
  public String toString() {
    if (acquired) {
      return "RateLimitLease[acquired, permits=" + permits + "]";
    }
    return "RateLimitLease[refused, permits="
        + permits
        + (retryAfterNanos == NO_RETRY_AFTER ? "" : ", retryAfter=" + retryAfter().orElseThrow())
        + ", reason="
        + reason
        + "]";
  }
}
