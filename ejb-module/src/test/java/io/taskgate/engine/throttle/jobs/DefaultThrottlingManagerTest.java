package io.taskgate.engine.throttle.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Semaphore;
import io.taskgate.api.SettingRanges;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.ThrottlerInUseException;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.JobThrottlerReads;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.jobs.FamilyFixture.Ship;
import io.taskgate.engine.throttle.jobs.FamilyFixture.ShipHandler;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
        .hasMessage("maxCount must be between 1 and 1000000, was 0");
  }

  @Test
  void windowOptionsNameTheFieldAndValue() {
    assertThatThrownBy(() -> WindowOptions.fixed(5, Duration.ofMillis(500)))
        .hasMessageContaining("of at least 1 second, was PT0.5S");
    assertThatThrownBy(() -> WindowOptions.sliding(5, Duration.ofSeconds(10), 3))
        .hasMessageContaining("splitting into 3 equal buckets");
    assertThatThrownBy(() -> WindowOptions.fixed(0, Duration.ofSeconds(1)))
        .hasMessage("limit must be between 1 and 1000000, was 0");
    assertThatThrownBy(() -> new WindowOptions(1, Duration.ofSeconds(1), 1, 0, 2, 20))
        .hasMessageContaining("set capacity too");
    assertThat(WindowOptions.fixed(1, Duration.ofHours(1)).rebalanced(20, 2, 20).limit())
        .isEqualTo(20);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0 | maxCount must be between 1 and 1000000, was 0",
        "1000001 | maxCount must be between 1 and 1000000, was 1000001",
        "2147483647 | maxCount must be between 1 and 1000000, was 2147483647"
      })
  void aSemaphoreOutsideItsRangeIsRefusedAndNotStored(int maxCount, String message) {
    f.manager.addOrUpdateSemaphore("newsletter", 2);

    assertThatThrownBy(() -> f.manager.addOrUpdateSemaphore("newsletter", maxCount))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
    assertThat(f.manager.semaphore("newsletter")).contains(2);
  }

  @Test
  void aGrownSemaphoreWakesAtMostTheTasksWaitingForIt() {
    f.manager.addOrUpdateSemaphore("newsletter", 1);
    List<Set<String>> woken = new ArrayList<>();
    f.throttles.onFreed(
        freed -> {
          woken.add(freed);
          f.family.waiters().released(freed.iterator().next());
        });
    String resource = JobThrottlerReads.resource(ThrottlerKind.SEMAPHORE, "newsletter");
    for (int i = 0; i < 3; i++) {
      assertThat(
              f.family
                  .waiters()
                  .waitFor(resource, UUID.randomUUID(), "default", f.family.waiters().releases()))
          .isTrue();
    }

    f.manager.addOrUpdateSemaphore("newsletter", SettingRanges.MAX_COUNT);

    assertThat(woken).hasSize(3).allSatisfy(freed -> assertThat(freed).containsExactly(resource));
    assertThat(f.family.waiters().count(resource)).isZero();
    assertThat(f.manager.semaphore("newsletter")).contains(SettingRanges.MAX_COUNT);
  }

  @Test
  void aGrownSemaphoreWakesTwoOfThreeWaitersForTwoNewPermitsAndNoneWhenItShrinks() {
    f.manager.addOrUpdateSemaphore("newsletter", 1);
    List<Set<String>> woken = new ArrayList<>();
    f.throttles.onFreed(
        freed -> {
          woken.add(freed);
          f.family.waiters().released(freed.iterator().next());
        });
    String resource = JobThrottlerReads.resource(ThrottlerKind.SEMAPHORE, "newsletter");
    for (int i = 0; i < 3; i++) {
      f.family
          .waiters()
          .waitFor(resource, UUID.randomUUID(), "default", f.family.waiters().releases());
    }

    f.manager.addOrUpdateSemaphore("newsletter", 3);
    assertThat(woken).hasSize(2);
    f.manager.addOrUpdateSemaphore("newsletter", 2);
    assertThat(woken).hasSize(2);
    assertThat(f.family.waiters().count(resource)).isOne();
  }

  @Test
  void theWakingRunsOnTheExecutorNotOnTheCallersThread() {
    f.manager.addOrUpdateSemaphore("newsletter", 1);
    List<Runnable> submitted = new ArrayList<>();
    f.family.executor = executor(submitted::add);
    List<Set<String>> woken = new ArrayList<>();
    f.throttles.onFreed(woken::add);
    String resource = JobThrottlerReads.resource(ThrottlerKind.SEMAPHORE, "newsletter");
    f.family
        .waiters()
        .waitFor(resource, UUID.randomUUID(), "default", f.family.waiters().releases());

    f.manager.addOrUpdateSemaphore("newsletter", 5);

    assertThat(f.manager.semaphore("newsletter")).as("applied before the call returns").contains(5);
    assertThat(woken).as("nothing woken on the caller's thread").isEmpty();
    assertThat(submitted).hasSize(1);
    submitted.get(0).run();
    assertThat(woken).hasSize(1);
  }

  /** A managed executor that hands what it is given to {@code executor}. */
  static ManagedExecutorService executor(Executor executor) {
    return (ManagedExecutorService)
        Proxy.newProxyInstance(
            ManagedExecutorService.class.getClassLoader(),
            new Class<?>[] {ManagedExecutorService.class},
            (proxy, method, args) -> {
              if (!method.getName().equals("execute")) {
                throw new AssertionError("not expected here: " + method);
              }
              executor.execute((Runnable) args[0]);
              return null;
            });
  }
}
