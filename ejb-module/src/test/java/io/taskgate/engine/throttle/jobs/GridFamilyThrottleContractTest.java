package io.taskgate.engine.throttle.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.cluster.grid.GridMembers;
import io.taskgate.engine.cluster.grid.GridThrottlerState;
import io.taskgate.engine.throttle.ThrottleChain.Admission;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.jobs.FamilyFixture.Ship;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
    GridThrottlerState state = GridMembers.emptyState(members.get(1));
    states.add(state);
    return state;
  }

  @AfterEach
  void close() {
    states.forEach(GridThrottlerState::close);
  }

  @Test
  void aTaskTheGridDoesNotAnswerForHoldsNothingAndAsksAgainASecondLater() {
    List<HazelcastInstance> alone = GridMembers.start(1);
    GridThrottlerState state = GridMembers.emptyState(alone.get(0));
    states.add(state);
    GridMembers.terminate(alone);
    FamilyFixture fixture = new FamilyFixture();
    fixture.family.useState(state);
    fixture.manager.addOrUpdateWindow(
        ThrottlerKind.FIXED_WINDOW, "github", WindowOptions.fixed(10, Duration.ofSeconds(1)));

    for (Class<?> handler : List.of(ByOrder.class, Github.class)) {
      Admission admission =
          fixture
              .chain(handler)
              .acquire(fixture.attempt(handler, Ship.order(1)), fixture.clock.instant());
      assertThat(admission).as(handler.getSimpleName()).isInstanceOf(Admission.Refused.class);
      assertThat(((Admission.Refused) admission).decision())
          .isEqualTo(new ThrottleDecision.RetryAt(FamilyFixture.T0.plusSeconds(1)));
    }
  }
}
