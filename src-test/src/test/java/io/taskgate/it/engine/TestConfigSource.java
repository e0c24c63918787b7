package io.taskgate.it.engine;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Settings for the in-container tests, all in one place: a tiny queue to show backpressure, a queue
 * for the REST tests, a fast sweep so that a task refused by a full queue is picked up again
 * quickly, a viewer user of their own (the shipped {@code viewer} disabled by an empty password),
 * and per-key metrics refreshed often.
 */
public class TestConfigSource implements ConfigSource {
  /** The queue the REST tests list by. */
  public static final String REST_QUEUE = "rest-it";

  /** The parking lot's cap in the test deployment. */
  public static final int MAX_PARKED = 16;

  /** A user with the viewer role only. */
  public static final String VIEWER = "reader";

  /** Its password. */
  public static final String VIEWER_PASSWORD = "viewer-secret";

  private static final Map<String, String> VALUES =
      Map.ofEntries(
          Map.entry("taskgate.queues", "tiny,gated,throttled," + REST_QUEUE),
          Map.entry("taskgate.queue.throttled.parallelism", "6"),
          Map.entry("taskgate.queue.gated.parallelism", "1"),
          Map.entry("taskgate.queue.gated.capacity", "30"),
          Map.entry("taskgate.rate-limit.max-parked-tasks", "" + MAX_PARKED),
          Map.entry("taskgate.queue.tiny.capacity", "2"),
          Map.entry("taskgate.queue.tiny.parallelism", "1"),
          Map.entry("taskgate.dispatch.max-wait", "PT0.2S"),
          Map.entry("taskgate.sweep.interval", "PT0.5S"),
          Map.entry("taskgate.security.user." + VIEWER + ".password", VIEWER_PASSWORD),
          Map.entry("taskgate.security.user." + VIEWER + ".groups", "taskgate-viewer"),
          Map.entry("taskgate.security.user.viewer.password", ""),
          Map.entry("taskgate.metrics.top-keys-refresh", "PT0.5S"),
          Map.entry("taskgate.metrics.tasks", "true"),
          Map.entry("taskgate.metrics.backlog-refresh", "PT0.5S"),
          Map.entry("taskgate.limiter.it-configured.algorithm", "fixed-window"),
          Map.entry("taskgate.limiter.it-configured.permits", "2"),
          Map.entry("taskgate.limiter.it-configured.period", "PT1M"));

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
