package io.taskgate.api;

import java.time.Duration;
import java.util.Optional;

/**
 * Defines the semaphores and windows that handlers name, at run time: {@code @Inject
 * ThrottlingManager}. Every method is idempotent; definitions are stored in the database (they
 * survive a restart and are shared by the instances of a cluster) and every change is audited (who,
 * when, old and new value). Mutexes need no definition: they are created on first use.
 *
 * <pre>{@code
 * @Inject ThrottlingManager throttling;
 *
 * void define(@Observes @Initialized(ApplicationScoped.class) Object start) {
 *   throttling.addOrUpdateSemaphore("newsletter", 3);
 *   throttling.addOrUpdateWindow(ThrottlerKind.FIXED_WINDOW, "github",
 *       WindowOptions.fixed(5000, Duration.ofHours(1)));
 * }
 * }</pre>
 */
public interface ThrottlingManager {

  /**
   * Defines semaphore {@code id} with {@code maxCount} permits, or changes its count: lowering it
   * below the tasks holding it never fails; the excess drains as they end.
   *
   * <p>Raising it wakes at most as many of the tasks waiting for it as it gains permits, never more
   * than wait, after the change is stored and off the caller's thread: the call returns at once
   * whatever the count.
   *
   * @throws IllegalArgumentException naming the value, if {@code maxCount} lies outside 1 to {@link
   *     SettingRanges#MAX_COUNT} or the id is not a valid resource id
   */
  void addOrUpdateSemaphore(String id, int maxCount);

  /**
   * Defines window {@code id} of {@code kind} (FIXED_WINDOW, SLIDING_WINDOW or DYNAMIC_WINDOW), or
   * changes it. Counts already taken stay counted.
   *
   * @throws IllegalArgumentException if the options do not suit the kind (a fixed window has one
   *     bucket; capacity and rebalancing are for dynamic windows)
   */
  void addOrUpdateWindow(ThrottlerKind kind, String id, WindowOptions options);

  /**
   * Removes throttler {@code id} of {@code kind}; returns false if it did not exist.
   *
   * @throws ThrottlerInUseException if it is a semaphore that tasks still hold
   */
  boolean remove(ThrottlerKind kind, String id);

  /** The semaphore's max count, if it is defined. */
  Optional<Integer> semaphore(String id);

  /** The window's definition, if it is defined. */
  Optional<WindowOptions> window(ThrottlerKind kind, String id);

  /**
   * Changes the rate limit of one {@code key} of {@code taskType} (its {@link RateLimit} stays the
   * default), or, with {@code key} null, of the whole task type (every key without a change of its
   * own): {@code permits} per {@code period}, {@code burst} back to back; its other options stay
   * the annotation's. Stored (it survives a restart and reaches every instance), audited, and used
   * from the next reservation on; slots already reserved are kept.
   *
   * @param key the key whose rate changes; null, and only null, for the whole task type (an empty
   *     key is refused, as is one holding a NUL character)
   * @throws IllegalArgumentException if the task type has no rate limit, or a value lies outside
   *     {@link SettingRanges} (naming the field and the value)
   */
  void setRateLimit(
      Class<? extends Task> taskType, String key, int permits, Duration period, int burst);

  /**
   * Drops the change made by {@link #setRateLimit} for {@code taskType} ({@code key} null) or its
   * {@code key}: the annotation (or the type's change, for a key) applies again. Returns false if
   * there was none.
   *
   * @throws IllegalArgumentException if the key is empty or holds a NUL character
   */
  boolean resetRateLimit(Class<? extends Task> taskType, String key);

  /** The rate limit {@code taskType}'s tasks of {@code key} (null: any key) get now, if limited. */
  Optional<RateLimitPolicy> rateLimit(Class<? extends Task> taskType, String key);

  /**
   * Changes limiter {@code name} of {@link RateLimited} methods (and {@link Limiter} injection
   * points): {@code permits} per {@code period}, {@code burst} back to back (a token bucket's
   * capacity); its algorithm and other options stay. Stored and audited like the other changes; the
   * next call on this instance uses it with fresh budgets, other instances within seconds (they
   * read the changes every 2 seconds).
   *
   * @throws IllegalArgumentException if no limiter has that name, or a value is invalid (naming it)
   */
  void setLimiter(String name, int permits, Duration period, int burst);

  /**
   * Drops the change made by {@link #setLimiter}: the declared limit applies again. Returns false
   * if there was none.
   */
  boolean resetLimiter(String name);
}
