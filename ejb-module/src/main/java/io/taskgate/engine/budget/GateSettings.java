package io.taskgate.engine.budget;

import io.taskgate.core.ratelimit.RateLimitKeys;
import io.taskgate.engine.config.ConfigText;
import io.taskgate.engine.queue.QueueSettings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
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
 *   <li>{@value #CLAIM_AHEAD}: how long before its reserved slot a parked task is claimed (its
 *       QUEUED → IN_PROGRESS write committed), so that the start at the slot waits for no database
 *       (an ISO-8601 duration from PT0S, which claims at the slot, to PT5S; default PT0.1S)
 * </ul>
 *
 * A value that is not a whole number of at least 1 (or not true/false, or not a duration in range)
 * is refused with a message naming the key and the value.
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

  /** Config key: how long before its slot a parked task is claimed. */
  public static final String CLAIM_AHEAD = "taskgate.rate-limit.claim-ahead";

  static final Duration DEFAULT_CLAIM_AHEAD = Duration.ofMillis(100);
  public static final Duration MAX_CLAIM_AHEAD = Duration.ofSeconds(5);

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

  /**
   * How long before its reserved slot a parked task is claimed, so that its start waits for no
   * write; zero claims it at the slot.
   */
  public Duration claimAhead() {
    return values.claimAhead();
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
   * @param claimAhead how long before its slot a parked task is claimed, from zero to 5 s
   */
  public record Values(
      int maxParkedTasks,
      int maxTrackedKeys,
      int maxKeyLength,
      boolean emitDeferralEvents,
      Duration claimAhead) {

    /** Checks the bounds. */
    public Values {
      atLeastOne(MAX_PARKED_TASKS, maxParkedTasks);
      atLeastOne(MAX_TRACKED_KEYS, maxTrackedKeys);
      atLeastOne(MAX_KEY_LENGTH, maxKeyLength);
      checkClaimAhead(claimAhead);
    }

    /** Values with the default {@link #claimAhead}. */
    public Values(
        int maxParkedTasks, int maxTrackedKeys, int maxKeyLength, boolean emitDeferralEvents) {
      this(maxParkedTasks, maxTrackedKeys, maxKeyLength, emitDeferralEvents, DEFAULT_CLAIM_AHEAD);
    }

    /** The defaults, for a default queue of {@code defaultQueueCapacity}. */
    public static Values defaults(int defaultQueueCapacity) {
      return new Values(
          defaultMaxParkedTasks(defaultQueueCapacity),
          DEFAULT_MAX_TRACKED_KEYS,
          RateLimitKeys.DEFAULT_MAX_KEY_LENGTH,
          true,
          DEFAULT_CLAIM_AHEAD);
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
          flag(config, EMIT_DEFERRAL_EVENTS, defaults.emitDeferralEvents()),
          duration(config, CLAIM_AHEAD, defaults.claimAhead()));
    }
  }

  /** The smaller of 5000 and twice the default queue's capacity. */
  static int defaultMaxParkedTasks(int defaultQueueCapacity) {
    return (int) Math.min(MAX_PARKED_TASKS_CAP, 2L * defaultQueueCapacity);
  }

  private static int count(Function<String, Optional<String>> config, String key, int fallback) {
    return ConfigText.parse(
            config, key, Integer::parseInt, "a whole number from 1 to " + Integer.MAX_VALUE)
        .map(value -> atLeastOne(key, value))
        .orElse(fallback);
  }

  private static boolean flag(
      Function<String, Optional<String>> config, String key, boolean fallback) {
    return ConfigText.parse(config, key, GateSettings::trueOrFalse, "true or false")
        .orElse(fallback);
  }

  private static boolean trueOrFalse(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("neither true nor false: " + text);
    };
  }

  private static Duration duration(
      Function<String, Optional<String>> config, String key, Duration fallback) {
    return ConfigText.parse(
            config, key, Duration::parse, "an ISO-8601 duration from PT0S to " + MAX_CLAIM_AHEAD)
        .map(GateSettings::checkClaimAhead)
        .orElse(fallback);
  }

  private static Duration checkClaimAhead(Duration value) {
    if (value == null || value.isNegative() || value.compareTo(MAX_CLAIM_AHEAD) > 0) {
      throw new IllegalArgumentException(
          "Configuration "
              + CLAIM_AHEAD
              + " must be a duration from PT0S to "
              + MAX_CLAIM_AHEAD
              + ", was "
              + value);
    }
    return value;
  }

  private static int atLeastOne(String key, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(
          "Configuration " + key + " must be at least 1, was " + value);
    }
    return value;
  }
}
