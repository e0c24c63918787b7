package io.taskgate.core.throttle;

import io.taskgate.api.ThrottlerKind;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * What a kind of job throttler is, in the one place that tells the kinds apart: the views, the
 * handlers' checks, the store and the throttles ask it rather than compare kinds. Immutable.
 *
 * @param kind the kind
 * @param holds whether a task holds it while it runs (a mutex or semaphore), rather than spending a
 *     start in a window
 * @param defined whether it must be defined before use (a semaphore or window); a mutex is created
 *     on first use
 * @param windowed whether its definition has window options (interval, buckets, …)
 * @param subWindows whether it keeps a window per filled sub-id within a capacity (dynamic)
 * @param fixedLimit its limit when it has no definition to read one from (a mutex: 1); 0 otherwise
 */
public record JobKind(
    ThrottlerKind kind,
    boolean holds,
    boolean defined,
    boolean windowed,
    boolean subWindows,
    int fixedLimit) {

  private static final Map<ThrottlerKind, JobKind> KINDS = new EnumMap<>(ThrottlerKind.class);

  static {
    add(new JobKind(ThrottlerKind.MUTEX, true, false, false, false, 1));
    add(new JobKind(ThrottlerKind.SEMAPHORE, true, true, false, false, 0));
    add(new JobKind(ThrottlerKind.FIXED_WINDOW, false, true, true, false, 0));
    add(new JobKind(ThrottlerKind.SLIDING_WINDOW, false, true, true, false, 0));
    add(new JobKind(ThrottlerKind.DYNAMIC_WINDOW, false, true, true, true, 0));
  }

  private static void add(JobKind kind) {
    KINDS.put(kind.kind(), kind);
  }

  /**
   * The job throttler kind {@code kind}.
   *
   * @throws IllegalArgumentException if it is not a job throttler's (a rate limit)
   */
  public static JobKind of(ThrottlerKind kind) {
    JobKind found = KINDS.get(kind);
    if (found == null) {
      throw new IllegalArgumentException(kind.label() + " is not a job throttler");
    }
    return found;
  }

  /** Whether {@code kind} is a job throttler's (not a rate limit's). */
  public static boolean isJob(ThrottlerKind kind) {
    return KINDS.containsKey(kind);
  }

  /**
   * Whether a fixed id is all its definition can have (no window per value but the dynamic one).
   */
  public boolean windowPerValueElsewhere() {
    return windowed && !subWindows;
  }

  /**
   * Why it does not let a task in, for the task's last error: {@code id} held (a mutex), all of its
   * {@code limit} permits held (a semaphore), full until {@code opensAt} (a window).
   */
  public String refusal(String id, int limit, Instant opensAt) {
    return kind.label()
        + " '"
        + id
        + "' "
        + (!holds
            ? "is full until " + opensAt
            : fixedLimit == 1
                ? "is held by another task"
                : "has all its " + limit + " permits held");
  }
}
