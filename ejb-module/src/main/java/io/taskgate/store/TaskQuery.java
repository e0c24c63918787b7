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
 * @param lastErrorLike only tasks whose last error matches this SQL {@code LIKE} pattern ({@code %}
 *     any text, {@code _} any one character), in which {@value #OWN_TYPE} stands for the task's own
 *     type
 * @param order the order of the tasks
 * @param page the page, from 0
 * @param size tasks per page, 1 to 500
 */
public record TaskQuery(
    Optional<TaskStatus> status,
    Optional<String> type,
    Optional<String> queue,
    Optional<String> rateKey,
    Optional<String> lastErrorLike,
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

  /** In {@link #lastErrorLike}, stands for the task's own type. */
  public static final String OWN_TYPE = "{type}";

  /** The largest page. */
  public static final int MAX_SIZE = 500;

  /** A query without a key filter. */
  public TaskQuery(
      Optional<TaskStatus> status,
      Optional<String> type,
      Optional<String> queue,
      int page,
      int size) {
    this(status, type, queue, Optional.empty(), Optional.empty(), Order.NEWEST, page, size);
  }

  /** A query of the newest first. */
  public TaskQuery(
      Optional<TaskStatus> status,
      Optional<String> type,
      Optional<String> queue,
      Optional<String> rateKey,
      int page,
      int size) {
    this(status, type, queue, rateKey, Optional.empty(), Order.NEWEST, page, size);
  }

  /** A query in {@code order} with no filter on the last error. */
  public TaskQuery(
      Optional<TaskStatus> status,
      Optional<String> type,
      Optional<String> queue,
      Optional<String> rateKey,
      Order order,
      int page,
      int size) {
    this(status, type, queue, rateKey, Optional.empty(), order, page, size);
  }

  /** Checks the page and its size. */
  public TaskQuery {
    java.util.Objects.requireNonNull(order, "order");
    java.util.Objects.requireNonNull(lastErrorLike, "lastErrorLike");
    if (page < 0) {
      throw new IllegalArgumentException("page must not be negative, was " + page);
    }
    if (size < 1 || size > MAX_SIZE) {
      throw new IllegalArgumentException("size must be from 1 to " + MAX_SIZE + ", was " + size);
    }
  }
}
