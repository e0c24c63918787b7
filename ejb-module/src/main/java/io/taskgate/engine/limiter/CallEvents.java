package io.taskgate.engine.limiter;

/**
 * What a {@link NamedLimiter} did with a call, told as it happens (for the per-minute history).
 * Called on the caller's thread, on the limiter's lock-free path: an implementation only counts.
 */
public interface CallEvents {
  /** Tells nothing. */
  CallEvents NONE =
      new CallEvents() {
        @Override
        public void granted(String limiter, boolean waited) {}

        @Override
        public void refused(String limiter) {}

        @Override
        public void failedOpen(String limiter) {}
      };

  /** {@code limiter} let a call in; {@code waited}: after the call waited for a permit. */
  void granted(String limiter, boolean waited);

  /** {@code limiter} refused a call. */
  void refused(String limiter);

  /** {@code limiter} let a call through untracked: it tracked as many keys as it may. */
  void failedOpen(String limiter);
}
