package io.taskgate.core.throttle;

import io.taskgate.api.WindowOptions;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Where the job throttlers keep their state: who holds each mutex and semaphore, and the counts of
 * each window. Resources are named {@code kind:id} ({@code mutex:order-42}). Every method is atomic
 * per resource and thread-safe. A state shared by several instances (the data grid's) may not
 * answer: {@link #acquire} and {@link #count} then throw {@link Unavailable}, and a release it
 * could not make at once it makes later, telling {@link #onFreedElsewhere}'s listener what it
 * freed.
 */
public interface ThrottlerState {

  /** The state did not answer in time: nothing was taken, the caller tries again later. */
  final class Unavailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why, with its cause. */
    public Unavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Lets {@code taskId} of {@code owner} hold {@code resource} if {@code limit} allows. */
  Holders.Acquired acquire(String resource, String owner, String taskId, int limit);

  /** {@code taskId} of {@code owner} no longer holds {@code resource}; true if a permit freed. */
  boolean release(String resource, String owner, String taskId);

  /** Everything {@code taskId} holds is given back; returns the resources with a permit freed. */
  Set<String> releaseAll(String taskId);

  /**
   * Counts a start in window {@code resource} ({@code sub}-window of a dynamic one; null for a
   * fixed or sliding one).
   */
  WindowCounts.Grant count(String resource, String sub, long nowMillis, WindowOptions options);

  /** Counts {@code count} starts read back after a restart. */
  void restore(String resource, String sub, long bucketStart, int count);

  /** Gives back a start counted in {@code bucketStart} that never ran. */
  void giveBack(String resource, String sub, long bucketStart);

  /** The holders of every held resource: resource to owner to tasks. */
  Map<String, Map<String, Set<String>>> holders();

  /** How many owners hold {@code resource}. */
  int owners(String resource);

  /** A window's counts per bucket in the current interval (empty if it never counted). */
  Map<Long, Integer> buckets(String resource, long nowMillis, WindowOptions options);

  /** When a fixed or sliding window next lets a start in: {@code nowMillis} if it has room now. */
  long opensAt(String resource, long nowMillis, WindowOptions options);

  /** A dynamic window's sub-windows and their counts in the current interval. */
  Map<String, Integer> subWindows(String resource, long nowMillis, WindowOptions options);

  /** A dynamic window's current limit for {@code sub}. */
  int limitOf(String resource, String sub, WindowOptions options);

  /**
   * Whether the holds and counts stored in the database must be read back into this state at start:
   * true unless the state outlives this instance (the data grid's, kept by other members).
   */
  default boolean rebuildNeeded() {
    return true;
  }

  /**
   * Tells the other instances that semaphore {@code resource} grew by {@code permits}: each wakes
   * at most that many of the tasks waiting for it there, and never more than wait ({@link
   * #onGrownElsewhere}). One message, whatever {@code permits}.
   */
  default void announceGrown(String resource, int permits) {}

  /**
   * Who is told that a semaphore grew on another instance, with by how many permits. Called on a
   * thread of its own.
   */
  default void onGrownElsewhere(java.util.function.BiConsumer<String, Integer> listener) {}

  /**
   * Who is told of the permits freed outside this instance's attempts: by other instances, or by a
   * release this state made late. Called on a thread of its own.
   */
  default void onFreedElsewhere(Consumer<Set<String>> listener) {}
}
