package io.taskgate.engine.throttle.family;

import com.hazelcast.core.HazelcastInstance;
import io.taskgate.engine.cluster.grid.GridMaps;
import io.taskgate.engine.cluster.grid.GridMembers;
import io.taskgate.engine.cluster.grid.GridThrottlerState;
import io.taskgate.engine.throttle.ThrottlerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The throttle contract, run against each job throttler on the data grid's state: a real grid of
 * two members, the state on the second, so that half the entries live on the other member.
 */
class GridFamilyThrottleContractTest extends FamilyThrottleContractTest {
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
    GridThrottlerState state =
        new GridThrottlerState(
            GridMaps.throttlers(members.get(1)),
            Duration.ofSeconds(5),
            Executors.defaultThreadFactory());
    state.parts().holds().clear();
    state.parts().held().clear();
    state.parts().windows().clear();
    states.add(state);
    return state;
  }

  @AfterEach
  void close() {
    states.forEach(GridThrottlerState::close);
  }
}
