package io.taskgate.engine.cluster.grid;

import com.hazelcast.core.HazelcastInstance;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.KeyedRateLimiterContract;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The data grid's limiter keeps the limiter contract, on one real Hazelcast member. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GridKeyedRateLimiterContractTest extends KeyedRateLimiterContract {
  private List<HazelcastInstance> members;

  @BeforeAll
  void startGrid() {
    members = GridMembers.start(1);
  }

  @AfterAll
  void stopGrid() {
    GridMembers.terminate(members);
  }

  /** The reservations live in the grid's entries, not counted by one instance. */
  @Override
  protected boolean countsItsReservations() {
    return false;
  }

  @Override
  protected KeyedRateLimiter newLimiter() {
    HazelcastInstance member = members.get(0);
    GridMaps.budgets(member, 1000).clear(); // every test starts from empty budgets
    return new GridKeyedRateLimiter(
        GridMaps.budgets(member, 1000),
        () -> member.getCluster().getMembers().size(),
        Duration.ofSeconds(5),
        () -> new InMemoryKeyedRateLimiter(1000),
        1000);
  }
}
