package io.taskgate.engine;

import io.taskgate.core.ratelimit.RateLimitKeys;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;

/**
 * The global knobs of the rate-limit gate, from MicroProfile Config, read and checked once when the
 * bean is first used (the limiter bean uses it at startup, so a bad value fails the start):
 *
 * <ul>
 *   <li>{@value #MAX_PARKED_TASKS}: tasks parked until their slot, at most (default the smaller of
 *       5000 and twice the default queue's capacity)
 *   <li>{@value #MAX_TRACKED_KEYS}: keys with a budget in memory, at most; beyond it new keys run
 *       unthrottled (default 100000)
 *   <li>{@value #MAX_KEY_LENGTH}: longer keys are replaced by their SHA-256 (default 256)
 *   <li>{@value #EMIT_DEFERRAL_EVENTS}: whether deferral monitoring events are fired (default true)
 * </ul>
 *
 * A value that is not a whole number of at least 1 (or not true/false) is refused with a message
 * naming the key and the value.
 */
@ApplicationScoped
public class GateSettings {
  /** Config key: the most tasks parked at once. */
  public static final String MAX_PARKED_TASKS = "taskgate.rate-limit.max-parked-tasks";

  /** Config key: the most keys tracked at once. */
  public static final String MAX_TRACKED_KEYS = "taskgate.rate-limit.max-tracked-keys";

  /** Config key: the longest key used as it is. */
  public static final String MAX_KEY_LENGTH = "taskgate.rate-limit.max-key-length";

  /** Config key: whether deferral events are fired. */
  public static final String EMIT_DEFERRAL_EVENTS = "taskgate.rate-limit.emit-deferral-events";

  static final int MAX_PARKED_TASKS_CAP = 5000;
  static final int DEFAULT_MAX_TRACKED_KEYS = 100_000;

  @Inject Config config;
  @Inject QueueSettings queues;

  private Values values;

  /** For CDI. */
  public GateSettings() {}

  private GateSettings(Values values) {
    this.values = values;
  }

  /** Settings with these values, for code and tests outside the container. */
  public static GateSettings of(Values values) {
    return new GateSettings(values);
  }

  @PostConstruct
  void load() {
    values =
        Values.read(
            key -> config.getOptionalValue(key, String.class),
            queues.queues().get(QueueSettings.DEFAULT_QUEUE).capacity());
  }

  /** The most tasks parked at once. */
  public int maxParkedTasks() {
    return values.maxParkedTasks();
  }

  /** The most keys tracked at once. */
  public int maxTrackedKeys() {
    return values.maxTrackedKeys();
  }

  /** The longest key used as it is; longer ones are hashed. */
  public int maxKeyLength() {
    return values.maxKeyLength();
  }

  /** Whether deferral events are fired. */
  public boolean emitDeferralEvents() {
    return values.emitDeferralEvents();
  }

  /** All values. */
  public Values values() {
    return values;
  }

  /**
   * The settings' values.
   *
   * @param maxParkedTasks the most tasks parked at once, at least 1
   * @param maxTrackedKeys the most keys tracked at once, at least 1
   * @param maxKeyLength the longest key used as it is, at least 1
   * @param emitDeferralEvents whether deferral events are fired
   */
  public record Values(
      int maxParkedTasks, int maxTrackedKeys, int maxKeyLength, boolean emitDeferralEvents) {

    /** Checks the bounds. */
    public Values {
      atLeastOne(MAX_PARKED_TASKS, maxParkedTasks);
      atLeastOne(MAX_TRACKED_KEYS, maxTrackedKeys);
      atLeastOne(MAX_KEY_LENGTH, maxKeyLength);
    }

    /** The defaults, for a default queue of {@code defaultQueueCapacity}. */
    public static Values defaults(int defaultQueueCapacity) {
      return new Values(
          defaultMaxParkedTasks(defaultQueueCapacity),
          DEFAULT_MAX_TRACKED_KEYS,
          RateLimitKeys.DEFAULT_MAX_KEY_LENGTH,
          true);
    }

    /**
     * The values {@code config} gives (a lookup of raw text by key), defaults for the keys it
     * lacks.
     *
     * @throws IllegalArgumentException naming the key and the value, for a value that is not valid
     */
    public static Values read(Function<String, Optional<String>> config, int defaultQueueCapacity) {
      Values defaults = defaults(defaultQueueCapacity);
      return new Values(
          count(config, MAX_PARKED_TASKS, defaults.maxParkedTasks()),
          count(config, MAX_TRACKED_KEYS, defaults.maxTrackedKeys()),
          count(config, MAX_KEY_LENGTH, defaults.maxKeyLength()),
          flag(config, EMIT_DEFERRAL_EVENTS, defaults.emitDeferralEvents()));
    }
  }

  /** The smaller of 5000 and twice the default queue's capacity. */
  static int defaultMaxParkedTasks(int defaultQueueCapacity) {
    return (int) Math.min(MAX_PARKED_TASKS_CAP, 2L * defaultQueueCapacity);
  }

  private static int count(Function<String, Optional<String>> config, String key, int fallback) {
    Optional<String> text = config.apply(key);
    if (text.isEmpty()) {
      return fallback;
    }
    try {
      return atLeastOne(key, Integer.parseInt(text.get().strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Configuration "
              + key
              + " must be a whole number from 1 to "
              + Integer.MAX_VALUE
              + ", was '"
              + text.get()
              + "'",
          e);
    }
  }

  private static boolean flag(
      Function<String, Optional<String>> config, String key, boolean fallback) {
    Optional<String> text = config.apply(key);
    if (text.isEmpty()) {
      return fallback;
    }
    return switch (text.get().strip().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(
              "Configuration " + key + " must be true or false, was '" + text.get() + "'");
    };
  }

  private static int atLeastOne(String key, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(
          "Configuration " + key + " must be at least 1, was " + value);
    }
    return value;
  }
}
