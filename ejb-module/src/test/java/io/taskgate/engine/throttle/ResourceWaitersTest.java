package io.taskgate.engine.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.throttle.ResourceWaiters.Waiter;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ResourceWaitersTest {
  final ResourceWaiters waiters = new ResourceWaiters();
  final UUID first = new UUID(0, 1);
  final UUID second = new UUID(0, 2);

  @Test
  void aReleaseWakesTheFirstWaiterOfThatResourceOnly() {
    long seen = waiters.releases();
    assertThat(waiters.waitFor("lock-a", first, "q1", seen)).isTrue();
    assertThat(waiters.waitFor("lock-a", second, "q2", seen)).isTrue();

    assertThat(waiters.released("lock-b")).isEmpty();
    assertThat(waiters.released("lock-a")).contains(new Waiter(first, "q1"));
    assertThat(waiters.released("lock-a")).contains(new Waiter(second, "q2"));
    assertThat(waiters.released("lock-a")).isEmpty();
    assertThat(waiters.size()).isZero();
  }

  @Test
  void aWaiterDispatchedAgainKeepsItsPlaceWithItsNewCopy() {
    long seen = waiters.releases();
    io.taskgate.store.StoredTask before =
        io.taskgate.store.StoredTask.queued(
            first,
            "shop.Mail",
            "{\"v\":1}",
            "q1",
            "k",
            java.time.Instant.EPOCH,
            null,
            java.time.Instant.EPOCH);
    waiters.waitFor("lock-a", new Waiter(first, "q1", before), seen);
    waiters.waitFor("lock-a", second, "q2", seen);
    io.taskgate.store.StoredTask after = before.withPayload("{\"v\":2}");

    assertThat(waiters.replaced(after)).isTrue();
    assertThat(waiters.replaced(after.withPayload("x").withRateKey(null)))
        .as("another waiter's copy is not touched")
        .isTrue();
    assertThat(waiters.released("lock-a").orElseThrow().task().payload()).isEqualTo("x");
    assertThat(waiters.waiting("lock-a")).containsExactly(second);
    assertThat(waiters.replaced(after)).as("no longer waiting").isFalse();
  }

  @Test
  void aReleaseBetweenTheDecisionAndTheWaitIsNotMissed() {
    long seen = waiters.releases();
    waiters.released("lock-a"); // the holder let go after the throttle said "wait"

    assertThat(waiters.waitFor("lock-a", first, "q1", seen)).isFalse();
    assertThat(waiters.size()).isZero();
  }

  @Test
  void aCancelledWaiterIsForgottenAndAWaiterMovesToItsNewResource() {
    long seen = waiters.releases();
    waiters.waitFor("lock-a", first, "q1", seen);
    waiters.waitFor("lock-b", first, "q1", seen);
    waiters.waitFor("lock-a", second, "q1", seen);

    assertThat(waiters.forget(second)).isTrue();
    assertThat(waiters.forget(second)).isFalse();
    assertThat(waiters.released("lock-a")).isEmpty();
    assertThat(waiters.released("lock-b")).contains(new Waiter(first, "q1"));
  }

  @Test
  void aWaiterLookingAgainForTheSameResourceKeepsItsPlace() {
    ResourceWaiters waiters = new ResourceWaiters();
    UUID first = UUID.randomUUID();
    UUID second = UUID.randomUUID();
    waiters.waitFor("semaphore:s", first, "q", waiters.releases());
    waiters.waitFor("semaphore:s", second, "q", waiters.releases());

    waiters.waitFor("semaphore:s", first, "q", waiters.releases()); // its recheck: still refused

    assertThat(waiters.waiting("semaphore:s")).containsExactly(first, second);
    assertThat(waiters.released("semaphore:s")).map(ResourceWaiters.Waiter::taskId).contains(first);
  }

  @Test
  void aWorkerTakesTheFirstWaitersItCanRunTogetherInOrder() {
    for (int i = 0; i < 5; i++) {
      waiters.waitFor("semaphore:s", new ResourceWaiters.Waiter(id(i), i == 3 ? "other" : "q"), 0);
    }
    long before = waiters.releases();

    java.util.List<ResourceWaiters.Waiter> taken =
        waiters.released("semaphore:s", 16, (first, next) -> next.queue().equals(first.queue()));

    assertThat(taken)
        .extracting(ResourceWaiters.Waiter::taskId)
        .containsExactly(id(0), id(1), id(2));
    assertThat(waiters.releases()).isEqualTo(before + 1);
    assertThat(waiters.waiting("semaphore:s")).containsExactly(id(3), id(4));
    assertThat(waiters.released("semaphore:s", 1, (first, next) -> true))
        .extracting(ResourceWaiters.Waiter::taskId)
        .containsExactly(id(3));
    assertThat(waiters.released("nobody", 16, (first, next) -> true)).isEmpty();
  }

  private static java.util.UUID id(int n) {
    return new java.util.UUID(0, n);
  }
}
