package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleContract;
import io.taskgate.engine.throttle.ThrottledAttempt;
import java.time.Duration;
import java.time.Instant;

/** The keyed rate-limit gate keeps the throttle contract. */
class RateLimitGateContractTest extends ThrottleContract {
  private GateFixture fixture;

  @Override
  protected Throttle throttle() {
    fixture =
        new GateFixture(
            RateLimitPolicy.of(10, Duration.ofSeconds(1)).withBurst(2), 10_000, Duration.ZERO);
    return fixture.gate;
  }

  @Override
  protected ThrottledAttempt attempt(int n) {
    return fixture.attempt("tenant-" + (n % 7));
  }

  @Override
  protected Instant now() {
    return fixture.clock.instant();
  }
}
