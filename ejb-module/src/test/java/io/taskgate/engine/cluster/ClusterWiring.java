package io.taskgate.engine.cluster;

import io.taskgate.store.InstanceStore;
import java.time.Duration;
import java.time.InstantSource;

/** Wires {@link Instances} by hand for tests outside this package, as CDI would. */
public final class ClusterWiring {
  private ClusterWiring() {}

  /**
   * Instance {@code id} on {@code store} (may be null if it never beats), 10 s beats, 30 s timeout.
   */
  public static Instances instances(String id, InstanceStore store, InstantSource clock) {
    Instances instances = new Instances();
    instances.store = store;
    instances.clock = clock;
    instances.settings =
        ClusterSettings.of(
            new ClusterSettings.Values(
                id, "host-" + id, Duration.ofSeconds(10), Duration.ofSeconds(30)));
    return instances;
  }
}
