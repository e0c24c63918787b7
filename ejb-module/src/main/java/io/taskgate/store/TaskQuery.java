package io.taskgate.store;

import io.taskgate.api.TaskStatus;
import java.util.Optional;

/**
 * A filter and a page over stored tasks.
 *
 * @param status only tasks in this status
 * @param type only tasks of this type
 * @param queue only tasks on this queue
 * @param rateKey only tasks whose rate-limit key is this one
 * @param order the order of the tasks
 * @param page the page, from 0
 * @param size tasks per page, 1 to 500
 */
public record TaskQuery(
    Optional<TaskStatus> status,
    Optional<String> type,
    Optional<String> queue,
    Optional<String> rateKey,
    Order order,
    int page,
    int size) {

  /** How the tasks of a query are ordered. */
  public enum Order {
    /** The last stored first (the default). */
    NEWEST,
    /** The first stored first. */
    OLDEST,
    /** The soonest due first: when each is (or was last) due. */
    DUE
  }

  /** The largest page. */
  public static final int MAX_SIZE = 500;

  /** A query without a key filter. */
  public TaskQuery(
      Optional<TaskStatus> status,
      Optional<String> type,
      Optional<String> queue,
      int page,
      int size) {
    this(status, type, queue, Optional.empty(), Order.NEWEST, page, size);
  }

  /** A query of the newest first. */
  public TaskQuery(
      Optional<TaskStatus> status,
      Optional<String> type,
      Optional<String> queue,
      Optional<String> rateKey,
      int page,
      int size) {
    this(status, type, queue, rateKey, Order.NEWEST, page, size);
  }

  /** Checks the page and its size. */
  public TaskQuery {
    java.util.Objects.requireNonNull(order, "order");
    if (page < 0) {
      throw new IllegalArgumentException("page must not be negative, was " + page);
    }
    if (size < 1 || size > MAX_SIZE) {
      throw new IllegalArgumentException("size must be from 1 to " + MAX_SIZE + ", was " + size);
    }
  }
}
