package io.taskgate.web.api;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.InvalidDispatchOptionException;
import io.taskgate.api.SettingRanges;
import io.taskgate.api.TaskStatus;
import io.taskgate.engine.admin.dto.EndedTasks;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import io.taskgate.engine.admin.dto.RateLimitSort;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Parses the API's query and path parameters; a bad one becomes a 400 {@link ApiProblem} naming the
 * parameter and its value. Parameters arrive as strings so that a bad number or id is our 400, not
 * the JAX-RS default 404.
 */
final class Params {
  static final int DEFAULT_PAGE_SIZE = 50;
  static final int MAX_PAGE_SIZE = RateLimitQuery.MAX_SIZE;

  private Params() {}

  /**
   * The dispatch options from {@code delay}, {@code at}, {@code queue} and {@code taskKey}, checked
   * as {@link DispatchOptions} checks them (except how far {@code at} lies from now, which the
   * dispatcher checks: {@link #invalidOption}).
   */
  static DispatchOptions dispatchOptions(String delay, String at, String queue, String taskKey) {
    if (present(delay) && present(at)) {
      throw ApiProblem.invalidParameter(
          "at", at, "Give either delay or at, not both (delay was '" + delay + "')");
    }
    try {
      DispatchOptions options = DispatchOptions.now();
      if (present(delay)) {
        options = options.after(duration("delay", delay));
      }
      if (present(at)) {
        options = options.at(instant("at", at));
      }
      if (queue != null) {
        options = options.onQueue(text("queue", queue));
      }
      if (taskKey != null) {
        options = options.withTaskKey(text("taskKey", taskKey));
      }
      return options;
    } catch (InvalidDispatchOptionException e) {
      throw invalidOption(e, delay, at, queue, taskKey);
    }
  }

  /**
   * A dispatch option the engine refused, as a 400 naming the parameter and echoing what was sent.
   */
  static ApiProblem invalidOption(
      InvalidDispatchOptionException e, String delay, String at, String queue, String taskKey) {
    String sent =
        switch (e.option()) {
          case "delay" -> delay;
          case "at" -> at;
          case "queue" -> queue;
          case "taskKey" -> taskKey;
          default -> e.value();
        };
    return ApiProblem.invalidParameter(e.option(), sent, e.getMessage());
  }

  static Duration duration(String name, String value) {
    Duration d;
    try {
      d = Duration.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw ApiProblem.invalidParameter(
          name,
          value,
          name
              + " must be an ISO-8601 duration such as PT30S or PT5M, at most "
              + DispatchOptions.MAX_DELAY);
    }
    if (d.isNegative()) {
      throw ApiProblem.invalidParameter(name, value, name + " must not be negative");
    }
    return d;
  }

  static Instant instant(String name, String value) {
    try {
      return Instant.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw ApiProblem.invalidParameter(
          name,
          value,
          name + " must be an ISO-8601 instant such as 2030-01-31T09:00:00Z (encode '+' as %2B)");
    }
  }

  static String text(String name, String value) {
    if (value.isBlank()) {
      throw ApiProblem.invalidParameter(name, value, name + " must not be blank");
    }
    return value;
  }

  static Optional<TaskStatus> status(String value) {
    if (!present(value)) {
      return Optional.empty();
    }
    try {
      return Optional.of(TaskStatus.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter(
          "status", value, "status must be one of " + Arrays.toString(TaskStatus.values()));
    }
  }

  /**
   * The ended tasks a bulk action takes: {@code status} one or more of COMPLETED, FAILED and
   * CANCELLED (comma-separated, any case; required), the task {@code type}, its {@code queue}, the
   * rate-limit {@code key}, text the last {@code error} contains, and ISO-8601 ages: ended at least
   * {@code olderThan} ago, less than {@code newerThan} ago.
   *
   * @throws ApiProblem 400 naming the parameter
   */
  static EndedTasks ended(
      String status,
      String type,
      String queue,
      String key,
      String error,
      String olderThan,
      String newerThan) {
    if (!present(status)) {
      throw ApiProblem.invalidParameter(
          "status", status, "status is required: one or more of completed, failed, cancelled");
    }
    Set<TaskStatus> statuses = EnumSet.noneOf(TaskStatus.class);
    for (String one : status.split(",", -1)) {
      TaskStatus parsed = present(one) ? Params.status(one).orElseThrow() : null;
      if (parsed == null || !parsed.terminal()) {
        throw ApiProblem.invalidParameter(
            "status", status, "status must be one or more of completed, failed, cancelled");
      }
      statuses.add(parsed);
    }
    return new EndedTasks(
        statuses,
        filter("type", type),
        filter("queue", queue),
        filter("key", key),
        filter("error", error),
        present(olderThan) ? Optional.of(duration("olderThan", olderThan)) : Optional.empty(),
        present(newerThan) ? Optional.of(duration("newerThan", newerThan)) : Optional.empty());
  }

  static Optional<String> optionalText(String value) {
    return present(value) ? Optional.of(value.trim()) : Optional.empty();
  }

  /**
   * An optional filter on a stored name ({@code type}, {@code queue}), trimmed: no stored name has
   * a control character, and PostgreSQL refuses a NUL in a query, so one left inside is a 400.
   */
  static Optional<String> filter(String name, String value) {
    Optional<String> text = optionalText(value);
    text.ifPresent(
        t ->
            t.chars()
                .filter(Character::isISOControl)
                .findFirst()
                .ifPresent(
                    c -> {
                      throw ApiProblem.invalidParameter(
                          name,
                          value,
                          String.format(
                              "%s must not contain control characters, found U+%04X", name, c));
                    }));
    return text;
  }

  static int page(String value) {
    int page = integer("page", value, 0);
    if (page < 0) {
      throw ApiProblem.invalidParameter("page", value, "page must not be negative");
    }
    return page;
  }

  /**
   * The {@code throttled} filter of the task list: {@code any} (every task waiting on this
   * instance: empty), or one reason ({@link io.taskgate.engine.admin.TaskAdmin.Throttled#parse}).
   */
  static Optional<io.taskgate.engine.admin.TaskAdmin.Throttled> throttled(String value) {
    try {
      return io.taskgate.engine.admin.TaskAdmin.Throttled.parse(value);
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter("throttled", value, e.getMessage());
    }
  }

  /** The order of the task list: {@code newest} (default), {@code oldest} or {@code due}. */
  static io.taskgate.engine.admin.TaskAdmin.Order taskOrder(String value) {
    try {
      return io.taskgate.engine.admin.TaskAdmin.Order.parse(value);
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter("sort", value, e.getMessage());
    }
  }

  /** The minutes of a history window: 1 to {@code retained}, {@code fallback} when absent. */
  static int minutes(String value, int fallback, int retained) {
    int minutes = integer("minutes", value, fallback);
    if (minutes < 1 || minutes > retained) {
      throw ApiProblem.invalidParameter(
          "minutes", value, "minutes must be from 1 to " + retained + ", the minutes kept");
    }
    return minutes;
  }

  static int size(String value) {
    int size = integer("size", value, DEFAULT_PAGE_SIZE);
    if (size < 1 || size > MAX_PAGE_SIZE) {
      throw ApiProblem.invalidParameter("size", value, "size must be from 1 to " + MAX_PAGE_SIZE);
    }
    return size;
  }

  /** A true/false flag; absent: {@code fallback}. */
  static boolean flag(String name, String value, boolean fallback) {
    if (!present(value)) {
      return fallback;
    }
    return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw ApiProblem.invalidParameter(name, value, name + " must be true or false");
    };
  }

  /** The rate-limit query from the parameters of {@code GET /api/rate-limits}. */
  static RateLimitQuery rateLimitQuery(
      String type,
      String key,
      String throttled,
      String sort,
      String order,
      String page,
      String size) {
    RateLimitSort by = RateLimitSort.KEY;
    if (present(sort)) {
      by =
          RateLimitSort.parse(sort)
              .orElseThrow(
                  () ->
                      ApiProblem.invalidParameter(
                          "sort",
                          sort,
                          "sort must be one of "
                              + Arrays.stream(RateLimitSort.values())
                                  .map(RateLimitSort::parameter)
                                  .toList()));
    }
    boolean descending = by.descendingByDefault();
    if (present(order)) {
      descending =
          switch (order.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "asc" -> false;
            case "desc" -> true;
            default ->
                throw ApiProblem.invalidParameter("order", order, "order must be asc or desc");
          };
    }
    int pageNumber = page(page);
    int pageSize = size(size);
    if ((long) pageNumber * pageSize + pageSize > RateLimitQuery.MAX_DEPTH) {
      throw ApiProblem.invalidParameter(
          "page",
          page,
          "(page + 1) × size must be at most "
              + RateLimitQuery.MAX_DEPTH
              + ": narrow the rows with type, key or throttled instead");
    }
    return new RateLimitQuery(
        optionalText(type),
        present(key) ? Optional.of(key) : Optional.empty(),
        flag("throttled", throttled, false),
        by,
        descending,
        pageNumber,
        pageSize);
  }

  /** A required, non-blank text parameter. */
  static String required(String name, String value) {
    if (value == null || value.isBlank()) {
      throw ApiProblem.invalidParameter(name, value, name + " is required");
    }
    return value;
  }

  /**
   * A rate-limit key parameter: given, not empty, without a NUL character ({@link
   * SettingRanges#key}).
   */
  static String key(String name, String value) {
    if (value == null) {
      throw ApiProblem.invalidParameter(name, null, name + " is required");
    }
    try {
      return SettingRanges.key(name, value);
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter(name, value.replace("\u0000", "\\u0000"), e.getMessage());
    }
  }

  static UUID uuid(String name, String value) {
    try {
      UUID id = UUID.fromString(value);
      if (!id.toString().equalsIgnoreCase(value)) {
        throw new IllegalArgumentException(value);
      }
      return id;
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter(
          name, value, name + " must be a UUID such as 123e4567-e89b-12d3-a456-426614174000");
    }
  }

  private static int integer(String name, String value, int fallback) {
    if (!present(value)) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw ApiProblem.invalidParameter(name, value, name + " must be a whole number");
    }
  }

  private static boolean present(String value) {
    return value != null && !value.isEmpty();
  }
}
