package io.taskgate.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.throttle.ResourceWaiters;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HandOffTest {
  @AfterEach
  void endOnThisThread() {
    if (HandOff.current() != null) {
      HandOff.current().end();
    }
  }

  @Test
  void aWorkerTakesOnAsManyWaitersAsFitInABatchAtThePaceOfItsLastTask() {
    HandOff handOff = HandOff.begin();
    assertThat(handOff.room()).as("not before its batch's queue is known").isZero();
    handOff.queue("q");
    assertThat(handOff.room()).isEqualTo(16);

    HandOff.ran(TimeUnit.MILLISECONDS.toNanos(1)); // 10 fit in the 10 ms of a batch
    assertThat(handOff.room()).isEqualTo(10);
    HandOff.ran(TimeUnit.MILLISECONDS.toNanos(400)); // a long task: one at a time
    assertThat(handOff.room()).isEqualTo(1);

    ResourceWaiters.Waiter other = new ResourceWaiters.Waiter(UUID.randomUUID(), "other");
    assertThat(handOff.fits(other)).as("another queue's waiter").isFalse();
    UUID id = UUID.randomUUID();
    handOff.take(new ResourceWaiters.Waiter(id, "q"));
    assertThat(handOff.room()).isZero();
    assertThat(handOff.end()).containsExactly(id);
    assertThat(HandOff.current()).isNull();
  }
}
