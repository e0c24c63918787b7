package io.taskgate.load.app;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The load application's queues, below system properties (ordinal 150): {@code load-eight} with 8
 * workers and {@code load-four} with 4, for the throttler benchmark.
 */
public class LoadConfigSource implements ConfigSource {
  private static final Map<String, String> VALUES =
      Map.of(
          "taskgate.queues", "load-eight,load-four",
          "taskgate.queue.load-eight.parallelism", "8",
          "taskgate.queue.load-eight.capacity", "20000",
          "taskgate.queue.load-four.parallelism", "4",
          "taskgate.queue.load-four.capacity", "20000");

  @Override
  public Map<String, String> getProperties() {
    return VALUES;
  }

  @Override
  public Set<String> getPropertyNames() {
    return VALUES.keySet();
  }

  @Override
  public String getValue(String name) {
    return VALUES.get(name);
  }

  @Override
  public String getName() {
    return "taskgate-load";
  }

  @Override
  public int getOrdinal() {
    return 150;
  }
}
