package io.taskgate.it.engine;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Settings for the in-container tests, all in one place: a tiny queue to show backpressure, a queue
 * for the REST tests, a fast sweep so that a task refused by a full queue is picked up again
 * quickly, and a non-admin user.
 */
public class TestConfigSource implements ConfigSource {
  /** The queue the REST tests list by. */
  public static final String REST_QUEUE = "rest-it";

  /** The parking lot's cap in the test deployment. */
  public static final int MAX_PARKED = 16;

  /** A user without the admin role. */
  public static final String VIEWER = "viewer";

  /** Its password. */
  public static final String VIEWER_PASSWORD = "viewer-secret";

  private static final Map<String, String> VALUES =
      Map.of(
          "taskgate.queues",
          "tiny,gated," + REST_QUEUE,
          "taskgate.queue.gated.parallelism",
          "1",
          "taskgate.queue.gated.capacity",
          "30",
          "taskgate.rate-limit.max-parked-tasks",
          "" + MAX_PARKED,
          "taskgate.queue.tiny.capacity",
          "2",
          "taskgate.queue.tiny.parallelism",
          "1",
          "taskgate.dispatch.max-wait",
          "PT0.2S",
          "taskgate.sweep.interval",
          "PT0.5S",
          "taskgate.security.user." + VIEWER + ".password",
          VIEWER_PASSWORD,
          "taskgate.security.user." + VIEWER + ".groups",
          "viewer");

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
