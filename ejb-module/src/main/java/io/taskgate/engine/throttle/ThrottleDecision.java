package io.taskgate.engine.throttle;

import java.time.Instant;
import java.util.Objects;

/** What a {@link Throttle} answers for an attempt. */
public sealed interface ThrottleDecision {

  /**
   * The attempt may run, now ({@code startAt} null) or at {@code startAt}, a reserved slot close
   * enough that the engine claims the task now and starts it then; {@code permit} is given back
   * when the attempt ends.
   */
  record Run(Permit permit, Instant startAt) implements ThrottleDecision {
    public Run {
      Objects.requireNonNull(permit, "permit");
    }

    /** Run now, holding {@code permit}. */
    public static Run now(Permit permit) {
      return new Run(permit, null);
    }
  }

  /** Not now: the task stays queued and comes back at {@code until} (its reserved slot). */
  record ParkUntil(Instant until) implements ThrottleDecision {
    public ParkUntil {
      Objects.requireNonNull(until, "until");
    }
  }

  /**
   * Not now, and nothing reserved: the task stays queued, holds no worker, and is delivered again
   * at {@code at} (when a window opens) to ask again.
   */
  record RetryAt(Instant at) implements ThrottleDecision {
    public RetryAt {
      Objects.requireNonNull(at, "at");
    }
  }

  /**
   * Not until {@code resource} is released: the task stays queued, holds no worker, and is woken
   * when a permit of the resource is given back, or at {@code recheckAt} (null: never) to look
   * again, keeping its place among the waiters: for a max wait, or a release this instance cannot
   * see.
   */
  record WaitForRelease(String resource, Instant recheckAt) implements ThrottleDecision {
    public WaitForRelease {
      Objects.requireNonNull(resource, "resource");
    }

    /** Waits for {@code resource} with no recheck. */
    public WaitForRelease(String resource) {
      this(resource, null);
    }
  }

  /**
   * Never, by the task's choice: a throttle whose action is DROP (or whose max wait passed) ends
   * the task CANCELLED with {@code reason}; its {@code onError} gets a {@code
   * TaskThrottledException} naming {@code throttle}.
   */
  record Drop(String throttle, String reason) implements ThrottleDecision {
    public Drop {
      Objects.requireNonNull(throttle, "throttle");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Not now, and no room to park it: the task keeps its place on its queue and tries again. */
  record HoldOnQueue(String reason) implements ThrottleDecision {}

  /**
   * Never: a one-shot task fails with {@code cause} (handed to its handler's {@code onError}), a
   * recurring one skips this occurrence and goes on at its first one after {@code slot} (null:
   * after now).
   */
  record Reject(String reason, Instant slot, RuntimeException cause) implements ThrottleDecision {
    public Reject {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(cause, "cause");
    }
  }

  /**
   * A recurring task's occurrence does not run: the series goes on at its first occurrence after
   * {@code notBefore} (or ends when it has none), {@code reason} recorded as its last error.
   */
  record SkipOccurrence(Instant notBefore, String reason) implements ThrottleDecision {
    public SkipOccurrence {
      Objects.requireNonNull(notBefore, "notBefore");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
