package io.taskgate.engine.throttle.concurrency;

import com.hazelcast.core.HazelcastInstance;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.cluster.grid.GridMembers;
import io.taskgate.engine.cluster.grid.GridThrottlerState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The throttle contract, run against a concurrency limit on the data grid's state: a real grid of
 * two members, the state on the second, so that half the keys live on the other member.
 */
class GridConcurrencyThrottleContractTest extends ConcurrencyThrottleContractTest {
  static List<HazelcastInstance> members;
  final List<GridThrottlerState> states = new ArrayList<>();

  @BeforeAll
  static void twoMembers() {
    members = GridMembers.start(2);
  }

  @AfterAll
  static void stopMembers() {
    GridMembers.terminate(members);
  }

  @Override
  ThrottlerState state() {
    GridThrottlerState state = GridMembers.emptyState(members.get(1));
    states.add(state);
    return state;
  }

  @AfterEach
  void close() {
    states.forEach(GridThrottlerState::close);
  }

  /** Two instances, each on its own member of the grid, keep one limit per key. */
  @org.junit.jupiter.api.Test
  void twoInstancesNeverRunMoreThanTheLimitOfOneKeyTogether() throws Exception {
    GridThrottlerState first = GridMembers.emptyState(members.get(0));
    GridThrottlerState second = GridMembers.emptyState(members.get(1));
    states.add(first);
    states.add(second);

    ConcurrencyConformance.check(
        List.of(new ConcurrencyFixture(first), new ConcurrencyFixture(second)));
  }
}
