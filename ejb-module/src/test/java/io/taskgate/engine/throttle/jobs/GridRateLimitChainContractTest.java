package io.taskgate.engine.throttle.jobs;

import com.hazelcast.core.HazelcastInstance;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import io.taskgate.engine.cluster.grid.GridKeyedRateLimiter;
import io.taskgate.engine.cluster.grid.GridMaps;
import io.taskgate.engine.cluster.grid.GridMembers;
import io.taskgate.engine.cluster.grid.GridThrottlerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The same, with the job throttlers' state and the rate-limit budgets in a real data grid of two
 * members, kept on the second, so that half the entries live on the other member.
 */
class GridRateLimitChainContractTest extends RateLimitChainContractTest {
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

  @Override
  KeyedRateLimiter limiter() {
    HazelcastInstance member = members.get(1);
    GridMaps.budgets(member, 1_000).clear();
    return new GridKeyedRateLimiter(
        GridMaps.budgets(member, 1_000),
        () -> member.getCluster().getMembers().size(),
        Duration.ofSeconds(5),
        () -> new InMemoryKeyedRateLimiter(1_000),
        1_000);
  }

  @Override
  int reservations(Class<?> handler, UUID... ids) {
    int n = 0;
    for (UUID id : ids) {
      if (limiter.reservedSlot(scope(handler), "acme", id) != KeyedRateLimiter.NO_RESERVATION) {
        n++;
      }
    }
    return n;
  }

  @AfterEach
  void close() {
    states.forEach(GridThrottlerState::close);
  }
}
