package io.taskgate.api;

/** The kinds of job throttler; each has its own namespace of ids. */
public enum ThrottlerKind {
  /** {@link Mutex}: one owner at a time; created on first use. */
  MUTEX("mutex"),
  /** {@link Semaphore}: at most maxCount at a time. */
  SEMAPHORE("semaphore"),
  /** {@link FixedWindow}: at most limit starts per fixed interval. */
  FIXED_WINDOW("fixed-window"),
  /** {@link SlidingWindow}: at most limit starts per sliding interval of buckets. */
  SLIDING_WINDOW("sliding-window"),
  /** {@link DynamicWindow}: a window per sub-id, within a shared capacity. */
  DYNAMIC_WINDOW("dynamic-window"),
  /**
   * A task type's {@link RateLimit}, changed at run time ({@link ThrottlingManager#setRateLimit}):
   * its id is the task type, or the task type and a key.
   */
  RATE_LIMIT("rate-limit"),
  /**
   * A pause of a queue, a task type or a rate-limit key ({@link PauseScope}): its id is the scope
   * and the name. Only its changes are logged here; pauses are not defined as throttlers.
   */
  PAUSE("pause");

  private final String label;

  ThrottlerKind(String label) {
    this.label = label;
  }

  /** The kind as the REST API and the pages spell it: {@code mutex}, {@code fixed-window}, … */
  public String label() {
    return label;
  }

  /** The kind spelled {@code label} ({@link #label()}, or the constant's name in any case). */
  public static ThrottlerKind parse(String label) {
    for (ThrottlerKind kind : values()) {
      if (kind.label.equalsIgnoreCase(label) || kind.name().equalsIgnoreCase(label)) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "unknown throttler kind '"
            + label
            + "': use mutex, semaphore, fixed-window, sliding-window, dynamic-window or"
            + " rate-limit");
  }
}
