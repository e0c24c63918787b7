package io.taskgate.engine.schedule;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.config.ConfigText;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * How long ended tasks are kept, per status, and how the pruner works: {@code
 * taskgate.retention.completed} (default {@code P7D}), {@code .failed} and {@code .cancelled}
 * (default {@code P30D}), each an ISO-8601 duration of at least a minute or {@code forever}; {@code
 * taskgate.retention.interval} (default {@code PT1M}), how often the pruner looks; {@code
 * taskgate.retention.batch} (default 1000, at most 10000), tasks deleted per transaction.
 *
 * @param ages how long a task is kept after it ended, by ended status; a status kept forever is
 *     absent
 * @param interval how often the pruner looks for tasks to delete
 * @param batch tasks deleted per transaction
 */
public record RetentionSettings(Map<TaskStatus, Duration> ages, Duration interval, int batch) {

  /** The prefix of the settings. */
  public static final String PREFIX = "taskgate.retention.";

  /** The setting of how often the pruner looks. */
  public static final String INTERVAL = PREFIX + "interval";

  /** The setting of the tasks per transaction. */
  public static final String BATCH = PREFIX + "batch";

  /** The value that keeps a status's tasks for ever. */
  public static final String FOREVER = "forever";

  /** The shortest age and interval. */
  static final Duration MINIMUM = Duration.ofMinutes(1);

  /** The largest batch. */
  static final int MAX_BATCH = 10_000;

  /** Keeps an unmodifiable copy of the ages. */
  public RetentionSettings {
    Map<TaskStatus, Duration> copy = new EnumMap<>(TaskStatus.class);
    copy.putAll(ages);
    ages = Collections.unmodifiableMap(copy);
  }

  /** The setting of {@code status}'s age: {@code taskgate.retention.completed}. */
  public static String key(TaskStatus status) {
    return PREFIX + status.name().toLowerCase(Locale.ROOT);
  }

  /** The default age of {@code status}'s tasks: a week for COMPLETED, a month for the others. */
  static Duration defaultAge(TaskStatus status) {
    return status == TaskStatus.COMPLETED ? Duration.ofDays(7) : Duration.ofDays(30);
  }

  /**
   * The settings {@code config} gives (a lookup of raw text by key), defaults for those it lacks.
   *
   * @throws IllegalArgumentException naming the key and the value, for a value that is not valid
   */
  public static RetentionSettings read(Function<String, Optional<String>> config) {
    Map<TaskStatus, Duration> ages = new EnumMap<>(TaskStatus.class);
    for (TaskStatus status : TaskStatus.values()) {
      if (status.terminal()) {
        ConfigText.parse(
                config,
                key(status),
                RetentionSettings::age,
                "an ISO-8601 duration of at least PT1M, such as P7D, or " + FOREVER)
            .orElse(Optional.of(defaultAge(status)))
            .ifPresent(age -> ages.put(status, age));
      }
    }
    Duration interval =
        ConfigText.parse(
                config,
                INTERVAL,
                text -> atLeastAMinute(Duration.parse(text)),
                "an ISO-8601 duration of at least PT1M")
            .orElse(MINIMUM);
    int batch =
        ConfigText.parse(
                config,
                BATCH,
                text -> {
                  int n = Integer.parseInt(text);
                  if (n < 1 || n > MAX_BATCH) {
                    throw new IllegalArgumentException("out of range: " + n);
                  }
                  return n;
                },
                "a whole number from 1 to " + MAX_BATCH)
            .orElse(1_000);
    return new RetentionSettings(ages, interval, batch);
  }

  /** An age as set: empty for {@value #FOREVER}. */
  private static Optional<Duration> age(String text) {
    if (text.equalsIgnoreCase(FOREVER)) {
      return Optional.empty();
    }
    return Optional.of(atLeastAMinute(Duration.parse(text)));
  }

  private static Duration atLeastAMinute(Duration value) {
    if (value.compareTo(MINIMUM) < 0) {
      throw new IllegalArgumentException("shorter than a minute: " + value);
    }
    return value;
  }
}
