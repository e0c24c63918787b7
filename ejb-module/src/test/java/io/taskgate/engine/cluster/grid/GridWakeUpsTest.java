package io.taskgate.engine.cluster.grid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The messages of {@link GridWakeUps}: a freed resource, or a semaphore grown in one message. */
class GridWakeUpsTest {

  @Test
  void aFreedResourceIsItsName() {
    assertThat(GridWakeUps.parse("semaphore:newsletter"))
        .contains(new GridWakeUps.Message(Set.of("semaphore:newsletter"), null, 0));
  }

  @Test
  void aGrownSemaphoreIsOneMessageWithItsPermits() {
    assertThat(GridWakeUps.parse("+2147483647 semaphore:news letter"))
        .contains(new GridWakeUps.Message(Set.of(), "semaphore:news letter", Integer.MAX_VALUE));
  }

  @Test
  void aMalformedGrowthIsIgnored() {
    assertThat(GridWakeUps.parse("+x semaphore:a")).isEmpty();
    assertThat(GridWakeUps.parse("+0 semaphore:a")).isEmpty();
    assertThat(GridWakeUps.parse("+5")).isEmpty();
  }
}
