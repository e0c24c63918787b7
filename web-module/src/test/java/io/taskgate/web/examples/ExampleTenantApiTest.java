package io.taskgate.web.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The example API's own limit, which the example handler's policy is paced to. */
class ExampleTenantApiTest {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private final ExampleTenantApi api = new ExampleTenantApi();

  ExampleTenantApiTest() {
    api.clock = now::get;
  }

  @Test
  void aSixteenthCallInAnyMinuteIsRefusedAndOtherTenantsAreNot() {
    UUID tenant = UUID.randomUUID();
    for (int i = 0; i < 15; i++) {
      api.sync(tenant);
    }

    assertThatThrownBy(() -> api.sync(tenant))
        .isInstanceOf(ExampleTenantApi.TooManyCallsException.class)
        .hasMessageContaining("made more than 15 calls in the last minute");
    api.sync(UUID.randomUUID());
    now.set(T0.plus(Duration.ofMinutes(1)));
    api.sync(tenant);
    assertThat(api.successfulSyncs(tenant)).isEqualTo(16);
  }

  @Test
  void theHandlersPaceOfOneCallEveryFourSecondsIsNeverRefused() {
    UUID tenant = UUID.randomUUID();
    for (int i = 0; i < 45; i++) {
      now.set(T0.plus(Duration.ofSeconds(4L * i)));
      api.sync(tenant);
    }
    assertThat(api.successfulSyncs(tenant)).isEqualTo(45);
  }
}
