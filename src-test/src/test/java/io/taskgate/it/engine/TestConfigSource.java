package io.taskgate.it.engine;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Engine settings for the in-container tests: a tiny queue to show backpressure, and a fast sweep
 * so that a task refused by a full queue is picked up again quickly.
 */
public class TestConfigSource implements ConfigSource {
  private static final Map<String, String> VALUES =
      Map.of(
          "taskgate.queues", "tiny",
          "taskgate.queue.tiny.capacity", "2",
          "taskgate.queue.tiny.parallelism", "1",
          "taskgate.dispatch.max-wait", "PT0.2S",
          "taskgate.sweep.interval", "PT0.5S");

  @Override
  public Map<String, String> getProperties() {
    return VALUES;
  }

  @Override
  public Set<String> getPropertyNames() {
    return VALUES.keySet();
  }

  @Override
  public String getValue(String propertyName) {
    return VALUES.get(propertyName);
  }

  @Override
  public String getName() {
    return "taskgate-engine-it";
  }

  @Override
  public int getOrdinal() {
    return 500;
  }
}
