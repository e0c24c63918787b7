package io.taskgate.engine.throttle.concurrency;

import io.taskgate.core.throttle.LocalThrottlerState;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleContract;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Instant;

/**
 * The throttle contract, run against a concurrency limit of 2 per tenant on this instance's state
 * (and, in a subclass, on the data grid's).
 */
class ConcurrencyThrottleContractTest extends ThrottleContract {
  /** A new, empty state. */
  ThrottlerState state() {
    return new LocalThrottlerState();
  }

  @Override
  protected Throttle throttle() {
    return new ConcurrencyFixture(state()).throttle(ConcurrencyFixture.TwoPerTenant.class);
  }

  @Override
  protected ThrottledAttempt attempt(int n) {
    return ConcurrencyFixture.attempt(ConcurrencyFixture.TwoPerTenant.class, "t" + (n % 3));
  }

  @Override
  protected Instant now() {
    return ConcurrencyFixture.T0;
  }
}
