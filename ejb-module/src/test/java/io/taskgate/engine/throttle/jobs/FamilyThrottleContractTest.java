package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.DynamicWindow;
import io.taskgate.api.FixedWindow;
import io.taskgate.api.Mutex;
import io.taskgate.api.Semaphore;
import io.taskgate.api.SlidingWindow;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.LocalThrottlerState;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleContract;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.throttle.jobs.FamilyFixture.Ship;
import io.taskgate.engine.throttle.jobs.FamilyFixture.ShipHandler;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Nested;

/**
 * The throttle contract, run against each job throttler on the local state (and, in a subclass, on
 * the data grid's).
 */
class FamilyThrottleContractTest {
  /** The state the throttlers keep theirs in: a new, empty one. */
  ThrottlerState state() {
    return new LocalThrottlerState();
  }

  @TaskHandler
  @Mutex("order-{orderId}")
  static class ByOrder extends ShipHandler {}

  @TaskHandler
  @Semaphore("newsletter")
  static class Newsletter extends ShipHandler {}

  @TaskHandler
  @FixedWindow("github")
  static class Github extends ShipHandler {}

  @TaskHandler
  @SlidingWindow("dropbox")
  static class Dropbox extends ShipHandler {}

  @TaskHandler
  @DynamicWindow(value = "tenants", window = "tenant-{tenant}")
  static class Tenants extends ShipHandler {}

  /** The contract for the throttle of {@code handler}, its definitions added first. */
  abstract class Family extends ThrottleContract {
    FamilyFixture fixture;

    abstract Class<?> handler();

    void define(DefaultThrottlingManager manager) {}

    @Override
    protected Throttle throttle() {
      fixture = new FamilyFixture();
      fixture.family.useState(state());
      define(fixture.manager);
      return fixture.family.throttlesOf(FamilyFixture.handler(handler())).get(0);
    }

    @Override
    protected ThrottledAttempt attempt(int n) {
      return fixture.attempt(handler(), new Ship(n % 5, "batch-" + n, "tenant-" + (n % 3)));
    }

    @Override
    protected Instant now() {
      return fixture.clock.instant();
    }
  }

  @Nested
  class MutexContract extends Family {
    @Override
    Class<?> handler() {
      return ByOrder.class;
    }
  }

  @Nested
  class SemaphoreContract extends Family {
    @Override
    Class<?> handler() {
      return Newsletter.class;
    }

    @Override
    void define(DefaultThrottlingManager manager) {
      manager.addOrUpdateSemaphore("newsletter", 3);
    }
  }

  @Nested
  class FixedWindowContract extends Family {
    @Override
    Class<?> handler() {
      return Github.class;
    }

    @Override
    void define(DefaultThrottlingManager manager) {
      manager.addOrUpdateWindow(
          ThrottlerKind.FIXED_WINDOW, "github", WindowOptions.fixed(10, Duration.ofSeconds(1)));
    }
  }

  @Nested
  class SlidingWindowContract extends Family {
    @Override
    Class<?> handler() {
      return Dropbox.class;
    }

    @Override
    void define(DefaultThrottlingManager manager) {
      manager.addOrUpdateWindow(
          ThrottlerKind.SLIDING_WINDOW,
          "dropbox",
          WindowOptions.sliding(10, Duration.ofSeconds(10), 10));
    }
  }

  @Nested
  class DynamicWindowContract extends Family {
    @Override
    Class<?> handler() {
      return Tenants.class;
    }

    @Override
    void define(DefaultThrottlingManager manager) {
      manager.addOrUpdateWindow(
          ThrottlerKind.DYNAMIC_WINDOW,
          "tenants",
          WindowOptions.sliding(1, Duration.ofMinutes(1), 6).rebalanced(20, 2, 20));
    }
  }
}
