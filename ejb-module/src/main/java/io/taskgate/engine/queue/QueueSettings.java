package io.taskgate.engine.queue;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * The queues and their sizes, from MicroProfile Config:
 *
 * <ul>
 *   <li>{@code taskgate.queues}: the queue names besides {@code default}, comma-separated
 *   <li>{@code taskgate.queue.<name>.capacity}: tasks the queue's channel holds (default 1000)
 *   <li>{@code taskgate.queue.<name>.parallelism}: tasks of the queue running at once (default 4)
 *   <li>{@code taskgate.dispatch.max-wait}: how long a dispatch waits for room in a full channel
 *       before it fails (ISO-8601, default PT5S)
 * </ul>
 */
@ApplicationScoped
public class QueueSettings {
  /** The queue every task type uses unless it names another. */
  public static final String DEFAULT_QUEUE = "default";

  static final int DEFAULT_CAPACITY = 1000;
  static final int DEFAULT_PARALLELISM = 4;

  @Inject Config config;

  /** Each queue's capacity and parallelism, the default queue first. */
  public Map<String, Sizes> queues() {
    Map<String, Sizes> queues = new LinkedHashMap<>();
    queues.put(DEFAULT_QUEUE, sizes(DEFAULT_QUEUE));
    for (String name :
        config.getOptionalValue("taskgate.queues", String.class).orElse("").split(",")) {
      if (!name.isBlank()) {
        queues.putIfAbsent(name.strip(), sizes(name.strip()));
      }
    }
    return queues;
  }

  /** How long a dispatch waits for room in a full channel. */
  public Duration maxDispatchWait() {
    return Duration.parse(
        config.getOptionalValue("taskgate.dispatch.max-wait", String.class).orElse("PT5S"));
  }

  private Sizes sizes(String queue) {
    int capacity = positive(queue, "capacity", DEFAULT_CAPACITY);
    int parallelism = positive(queue, "parallelism", DEFAULT_PARALLELISM);
    return new Sizes(capacity, parallelism);
  }

  private int positive(String queue, String option, int fallback) {
    String key = "taskgate.queue." + queue + "." + option;
    int value = config.getOptionalValue(key, Integer.class).orElse(fallback);
    if (value < 1) {
      throw new IllegalArgumentException(key + " must be at least 1, was " + value);
    }
    return value;
  }

  /**
   * @param capacity tasks the channel holds
   * @param parallelism tasks running at once
   */
  public record Sizes(int capacity, int parallelism) {}
}
