package io.taskgate.engine.cluster.grid;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which limiter keeps the rate-limit budgets, from MicroProfile Config:
 *
 * <ul>
 *   <li>{@value #LIMITER}: {@code local} (the default: each instance keeps its own budgets in
 *       memory) or {@code grid} (one budget per key across the cluster, in Payara's data grid)
 *   <li>{@value #GRID_TIMEOUT}: how long a rate-limit call waits for the grid before this instance
 *       decides locally at its share of the rate (ISO-8601, from PT0.001S to PT5S; default PT0.05S)
 * </ul>
 *
 * @param grid whether the budgets live in the data grid
 * @param gridTimeout how long a call waits for the grid
 */
public record GridSettings(boolean grid, Duration gridTimeout) {
  /** Config key: {@code local} or {@code grid}. */
  public static final String LIMITER = "taskgate.rate-limit.limiter";

  /** Config key: how long a call waits for the grid. */
  public static final String GRID_TIMEOUT = "taskgate.rate-limit.grid-timeout";

  static final Duration DEFAULT_GRID_TIMEOUT = Duration.ofMillis(50);
  static final Duration MIN_GRID_TIMEOUT = Duration.ofMillis(1);
  static final Duration MAX_GRID_TIMEOUT = Duration.ofSeconds(5);

  /** Checks the timeout's range. */
  public GridSettings {
    if (gridTimeout == null
        || gridTimeout.compareTo(MIN_GRID_TIMEOUT) < 0
        || gridTimeout.compareTo(MAX_GRID_TIMEOUT) > 0) {
      throw new IllegalArgumentException(
          "Configuration "
              + GRID_TIMEOUT
              + " must be a duration from "
              + MIN_GRID_TIMEOUT
              + " to "
              + MAX_GRID_TIMEOUT
              + ", was "
              + gridTimeout);
    }
  }

  /**
   * The settings {@code config} gives (raw text by key), defaults for the keys it lacks.
   *
   * @throws IllegalArgumentException naming the key and the value, for a value that is not valid
   */
  public static GridSettings read(Function<String, Optional<String>> config) {
    boolean grid =
        config
            .apply(LIMITER)
            .map(
                text ->
                    switch (text.strip().toLowerCase(Locale.ROOT)) {
                      case "local" -> false;
                      case "grid" -> true;
                      default ->
                          throw new IllegalArgumentException(
                              "Configuration "
                                  + LIMITER
                                  + " must be local or grid, was '"
                                  + text
                                  + "'");
                    })
            .orElse(false);
    Duration timeout =
        config
            .apply(GRID_TIMEOUT)
            .map(
                text -> {
                  try {
                    return Duration.parse(text.strip());
                  } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException(
                        "Configuration "
                            + GRID_TIMEOUT
                            + " must be an ISO-8601 duration such as PT0.05S, was '"
                            + text
                            + "'",
                        e);
                  }
                })
            .orElse(DEFAULT_GRID_TIMEOUT);
    return new GridSettings(grid, timeout);
  }
}
