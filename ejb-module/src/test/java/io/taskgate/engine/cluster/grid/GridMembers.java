package io.taskgate.engine.cluster.grid;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real data grid for tests: Hazelcast members in this JVM (the version Payara ships), joined over
 * TCP on the loopback under a cluster name of their own.
 */
public final class GridMembers {
  private GridMembers() {}

  /** {@code n} members of one new grid, its partitions assigned and safe. */
  public static List<HazelcastInstance> start(int n) {
    String cluster = "taskgate-test-" + UUID.randomUUID();
    List<HazelcastInstance> members = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      members.add(Hazelcast.newHazelcastInstance(config(cluster)));
    }
    assertThat(members.get(0).getCluster().getMembers()).hasSize(n);
    // the grid assigns its partitions and their backups at the first use of a map: done here, so
    // that the tests' calls meet a settled grid (real time passing is what is waited for)
    for (HazelcastInstance member : members) {
      GridMaps.budgets(member, 1000).get("warm-up");
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!members.get(0).getPartitionService().isClusterSafe() && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
    assertThat(members.get(0).getPartitionService().isClusterSafe()).isTrue();
    return members;
  }

  /**
   * A job throttlers' state on {@code member} with empty maps, waiting at most 5 s for the grid;
   * its wake-ups told on threads of their own. Close it after use.
   */
  public static GridThrottlerState emptyState(HazelcastInstance member) {
    GridThrottlerState state =
        new GridThrottlerState(
            GridMaps.throttlers(member),
            java.time.Duration.ofSeconds(5),
            java.util.concurrent.Executors.defaultThreadFactory());
    state.parts().holds().clear();
    state.parts().held().clear();
    state.parts().windows().clear();
    return state;
  }

  /** Stops {@code members} at once, with no graceful hand-over. */
  public static void terminate(List<HazelcastInstance> members) {
    members.forEach(m -> m.getLifecycleService().terminate());
  }

  static Config config(String cluster) {
    Config config = new Config().setClusterName(cluster);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "jdk");
    config.getNetworkConfig().setPort(5901).setPortAutoIncrement(true);
    config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    var tcp = config.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true);
    for (int port = 5901; port <= 5910; port++) {
      tcp.addMember("127.0.0.1:" + port);
    }
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    return config;
  }
}
