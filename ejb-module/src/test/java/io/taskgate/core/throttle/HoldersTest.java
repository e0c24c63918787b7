package io.taskgate.core.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.core.throttle.Holders.Acquired;
import org.junit.jupiter.api.Test;

class HoldersTest {
  private final Holders holders = new Holders();

  @Test
  void aMutexLetsOneOwnerInAndTheNextOnceItLeaves() {
    assertThat(holders.acquire("t1", "t1", 1)).isEqualTo(Acquired.GRANTED);
    assertThat(holders.acquire("t2", "t2", 1)).isEqualTo(Acquired.REFUSED);

    assertThat(holders.release("t1", "t1")).isTrue();

    assertThat(holders.acquire("t2", "t2", 1)).isEqualTo(Acquired.GRANTED);
    assertThat(holders.view()).containsOnlyKeys("t2");
  }

  @Test
  void anotherExecutionOfTheSameTaskCountsAsTheSameHolder() {
    holders.acquire("t1", "t1", 1);

    assertThat(holders.acquire("t1", "t1", 1)).isEqualTo(Acquired.REENTERED);
    assertThat(holders.owners()).isEqualTo(1);
    assertThat(holders.tasks()).isEqualTo(1);
  }

  @Test
  void aBatchHoldsUntilItsLastTaskLeaves() {
    assertThat(holders.acquire("batch-1", "a", 1)).isEqualTo(Acquired.GRANTED);
    assertThat(holders.acquire("batch-1", "b", 1)).isEqualTo(Acquired.GRANTED);
    assertThat(holders.acquire("batch-2", "c", 1)).isEqualTo(Acquired.REFUSED);

    assertThat(holders.release("batch-1", "a")).isFalse();
    assertThat(holders.acquire("batch-2", "c", 1)).isEqualTo(Acquired.REFUSED);
    assertThat(holders.release("batch-1", "b")).isTrue();
    assertThat(holders.acquire("batch-2", "c", 1)).isEqualTo(Acquired.GRANTED);
  }

  @Test
  void aLoweredLimitNeverFailsAndTheExcessDrains() {
    for (int i = 0; i < 5; i++) {
      assertThat(holders.acquire("t" + i, "t" + i, 5)).isEqualTo(Acquired.GRANTED);
    }

    // maxCount lowered to 2: the five holders keep running, nobody new gets in
    assertThat(holders.acquire("t9", "t9", 2)).isEqualTo(Acquired.REFUSED);
    holders.release("t0", "t0");
    holders.release("t1", "t1");
    holders.release("t2", "t2");
    assertThat(holders.acquire("t9", "t9", 2)).isEqualTo(Acquired.REFUSED);
    holders.release("t3", "t3");
    assertThat(holders.acquire("t9", "t9", 2)).isEqualTo(Acquired.GRANTED);
    assertThat(holders.owners()).isEqualTo(2);
  }

  @Test
  void releasingWhatIsNotHeldFreesNothing() {
    holders.acquire("t1", "t1", 1);

    assertThat(holders.release("t2", "t2")).isFalse();
    assertThat(holders.release("t1", "other")).isFalse();
    assertThat(holders.holds("t1")).isTrue();
    assertThat(holders.release("t1", "t1")).isTrue();
    assertThat(holders.release("t1", "t1")).isFalse();
    assertThat(holders.isEmpty()).isTrue();
  }
}
