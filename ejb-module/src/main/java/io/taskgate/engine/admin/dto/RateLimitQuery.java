package io.taskgate.engine.admin.dto;

import java.util.Objects;
import java.util.Optional;

/**
 * Which rate-limit rows to show.
 *
 * @param taskType only this task type (full class name, or a simple name no other type shares)
 * @param keyContains only keys containing this text (case-sensitive)
 * @param throttledOnly only keys that are throttled now or have parked tasks
 * @param sort the order
 * @param descending whether the order is reversed (ties stay by type and key, ascending)
 * @param page the page, from 0
 * @param size rows per page, 1 to {@value #MAX_SIZE}
 */
public record RateLimitQuery(
    Optional<String> taskType,
    Optional<String> keyContains,
    boolean throttledOnly,
    RateLimitSort sort,
    boolean descending,
    int page,
    int size) {

  /** The largest page. */
  public static final int MAX_SIZE = 500;

  /** The page size when none is asked for. */
  public static final int DEFAULT_SIZE = 50;

  /** The deepest row a page may reach (page × size + size). */
  public static final int MAX_DEPTH = 100_000;

  /** Checks the parts and bounds, naming the field and the value. */
  public RateLimitQuery {
    Objects.requireNonNull(taskType, "taskType");
    Objects.requireNonNull(keyContains, "keyContains");
    Objects.requireNonNull(sort, "sort");
    if (page < 0) {
      throw new IllegalArgumentException("page must not be negative, was " + page);
    }
    if (size < 1 || size > MAX_SIZE) {
      throw new IllegalArgumentException("size must be from 1 to " + MAX_SIZE + ", was " + size);
    }
    if ((long) page * size + size > MAX_DEPTH) {
      throw new IllegalArgumentException(
          "(page + 1) × size must be at most "
              + MAX_DEPTH
              + ", was page "
              + page
              + " of size "
              + size);
    }
  }

  /** Every key, by type and key, the first page. */
  public static RateLimitQuery all() {
    return new RateLimitQuery(
        Optional.empty(), Optional.empty(), false, RateLimitSort.KEY, false, 0, DEFAULT_SIZE);
  }
}
