package io.taskgate.engine.throttle.family;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Semaphore;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.ThrottlerInUseException;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.family.FamilyFixture.Ship;
import io.taskgate.engine.throttle.family.FamilyFixture.ShipHandler;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DefaultThrottlingManagerTest {
  @TaskHandler
  @Semaphore("newsletter")
  static class Newsletter extends ShipHandler {}

  private final FamilyFixture f = new FamilyFixture();

  @Test
  void addOrUpdateIsIdempotentAndAuditsOnlyChanges() {
    f.manager.addOrUpdateSemaphore("Newsletter", 3);
    f.manager.addOrUpdateSemaphore("newsletter", 3);
    f.manager.addOrUpdateSemaphore("newsletter", 5, "alice");

    assertThat(f.manager.semaphore("NEWSLETTER")).contains(5);
    assertThat(f.manager.changes(10))
        .extracting(c -> c.by() + ": " + c.before() + " -> " + c.after())
        .containsExactly("alice: maxCount=3 -> maxCount=5", "application: null -> maxCount=3");
  }

  @Test
  void aSemaphoreInUseCannotBeRemovedUntilItsHoldersEnd() {
    f.manager.addOrUpdateSemaphore("newsletter", 2);
    ThrottleChain chain = f.chain(Newsletter.class);
    var admitted =
        (ThrottleChain.Admission.Admitted)
            chain.acquire(f.attempt(Newsletter.class, Ship.order(1)), f.clock.instant());

    assertThatThrownBy(() -> f.manager.remove(ThrottlerKind.SEMAPHORE, "newsletter"))
        .isInstanceOf(ThrottlerInUseException.class)
        .hasMessage(
            "semaphore 'newsletter' is held by 1 task and cannot be removed: mark its annotations"
                + " mode = RELEASE_ONLY, let them end, then remove it");

    admitted.permits().release(AttemptEnd.COMPLETED);
    assertThat(f.manager.remove(ThrottlerKind.SEMAPHORE, "newsletter")).isTrue();
    assertThat(f.manager.remove(ThrottlerKind.SEMAPHORE, "newsletter")).isFalse();
    assertThat(f.manager.semaphore("newsletter")).isEmpty();
  }

  @Test
  void windowsAreCheckedForTheirKind() {
    assertThatThrownBy(
            () ->
                f.manager.addOrUpdateWindow(
                    ThrottlerKind.FIXED_WINDOW,
                    "github",
                    WindowOptions.sliding(5, Duration.ofMinutes(1), 2)))
        .hasMessageContaining("a fixed window has 1 bucket, was 2");
    assertThatThrownBy(
            () ->
                f.manager.addOrUpdateWindow(
                    ThrottlerKind.SLIDING_WINDOW,
                    "github",
                    WindowOptions.sliding(5, Duration.ofMinutes(1), 2).withCapacity(10)))
        .hasMessageContaining("capacity, minLimit and maxLimit are for dynamic windows only");
    assertThatThrownBy(
            () ->
                f.manager.addOrUpdateWindow(
                    ThrottlerKind.SEMAPHORE,
                    "github",
                    WindowOptions.fixed(5, Duration.ofSeconds(1))))
        .hasMessageContaining("semaphore is not a window");
    assertThatThrownBy(() -> f.manager.remove(ThrottlerKind.MUTEX, "order-1"))
        .hasMessageContaining("mutexes are not defined");
    assertThatThrownBy(() -> f.manager.addOrUpdateSemaphore("newsletter", 0))
        .hasMessage("maxCount must be at least 1, was 0");
  }

  @Test
  void windowOptionsNameTheFieldAndValue() {
    assertThatThrownBy(() -> WindowOptions.fixed(5, Duration.ofMillis(500)))
        .hasMessageContaining("of at least 1 second, was PT0.5S");
    assertThatThrownBy(() -> WindowOptions.sliding(5, Duration.ofSeconds(10), 3))
        .hasMessageContaining("splitting into 3 equal buckets");
    assertThatThrownBy(() -> WindowOptions.fixed(0, Duration.ofSeconds(1)))
        .hasMessage("limit must be at least 1, was 0");
    assertThatThrownBy(() -> new WindowOptions(1, Duration.ofSeconds(1), 1, 0, 2, 20))
        .hasMessageContaining("set capacity too");
    assertThat(WindowOptions.fixed(1, Duration.ofHours(1)).rebalanced(20, 2, 20).limit())
        .isEqualTo(20);
  }
}
