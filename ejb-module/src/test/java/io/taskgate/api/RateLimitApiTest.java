package io.taskgate.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.RateLimitRejectedException.Reason;
import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The rate-limit API's values: defaults, the handler's key, the exception, the events. */
class RateLimitApiTest {
  static final UUID ID = UUID.fromString("3f1c2a7e-0000-4000-8000-000000000001");
  static final Instant SLOT = Instant.parse("2026-11-22T10:00:04Z");

  record Keyed(String tenant) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return tenant;
    }
  }

  record Plain(String tenant) implements Task {}

  static class KeyedHandler implements Handler<Keyed> {
    @Override
    public void handle(Keyed task, TaskContext context) {}
  }

  static class PlainHandler implements Handler<Plain> {
    @Override
    public void handle(Plain task, TaskContext context) {}
  }

  @RateLimit(permits = 15, period = "PT1M")
  static class Defaults {}

  @Test
  void theAnnotationDefaultsAreThePolicyDefaults() throws Exception {
    RateLimit limit = Defaults.class.getAnnotation(RateLimit.class);
    RateLimitPolicy defaults = RateLimitPolicy.of(15, Duration.ofMinutes(1));

    assertThat(limit.burst()).isEqualTo(RateLimit.BURST_OF_PERMITS);
    assertThat(limit.throttleRetries()).isEqualTo(defaults.throttleRetries()).isTrue();
    assertThat(limit.startEmpty()).isEqualTo(defaults.startEmpty()).isFalse();
    assertThat(Duration.parse(limit.maxReservationHorizon()))
        .isEqualTo(defaults.maxReservationHorizon())
        .isEqualTo(Duration.ofHours(1));
    assertThat(limit.overflow().behavior()).isEqualTo(defaults.overflow());
  }

  @ParameterizedTest
  @CsvSource({"WAIT_FOR_CAPACITY, WAIT_FOR_CAPACITY", "DISCARD, DISCARD"})
  void overflowMapsToTheLimitersBehaviour(RateLimit.Overflow overflow, OverflowBehavior behavior) {
    assertThat(overflow.behavior()).isEqualTo(behavior);
  }

  @Test
  void byDefaultAHandlerHasNoPolicyAndTakesTheKeyFromTheTask() {
    assertThat(new KeyedHandler().rateLimitPolicy()).isNull();
    assertThat(new KeyedHandler().rateLimitKey(new Keyed("tenant-1"))).isEqualTo("tenant-1");
    assertThat(new PlainHandler().rateLimitKey(new Plain("tenant-1"))).isNull();
  }

  @Test
  void theRejectionCarriesEverythingAndSaysItOnOneLine() {
    RateLimitPolicy policy = RateLimitPolicy.of(15, Duration.ofMinutes(1)).withBurst(5);

    RateLimitRejectedException e =
        new RateLimitRejectedException(
            "com.acme.SyncTenantData",
            "com.acme.SyncTenantDataHandler",
            "tenant-7",
            SLOT,
            policy,
            Reason.BEYOND_HORIZON);

    assertThat(e)
        .hasMessage(
            "Rate limit rejected task of type com.acme.SyncTenantData: reason=BEYOND_HORIZON"
                + " key=tenant-7 slotUtc=2026-11-22T10:00:04Z"
                + " handler=com.acme.SyncTenantDataHandler permits=15 period=PT1M burst=5"
                + " maxReservationHorizon=PT1H overflow=WAIT_FOR_CAPACITY");
    assertThat(e.taskType()).isEqualTo("com.acme.SyncTenantData");
    assertThat(e.handler()).isEqualTo("com.acme.SyncTenantDataHandler");
    assertThat(e.key()).isEqualTo("tenant-7");
    assertThat(e.slotUtc()).isEqualTo(SLOT);
    assertThat(e.policy()).isSameAs(policy);
    assertThat(e.reason()).isEqualTo(Reason.BEYOND_HORIZON);
  }

  @ParameterizedTest
  @CsvSource({"REJECTED_BEYOND_HORIZON, BEYOND_HORIZON", "REJECTED_DISCARD, DISCARDED"})
  void aRejectingOutcomeHasItsReason(Outcome outcome, Reason reason) {
    assertThat(outcome.rejectionReason()).isEqualTo(reason);
  }

  @ParameterizedTest
  @EnumSource(
      value = Outcome.class,
      names = {"RUN_NOW", "DEFERRED", "UNTRACKED"})
  void otherOutcomesHaveNoReason(Outcome outcome) {
    assertThatThrownBy(outcome::rejectionReason)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(outcome + " is not a rejection");
  }

  @Test
  void theEventsSayWhatHappenedOnOneMachineParseableLine() {
    assertThat(
            new RateLimitDeferred(
                    ID,
                    "com.acme.SyncTenantData",
                    "tenant-7",
                    SLOT,
                    3,
                    true,
                    SLOT.minusSeconds(60),
                    Duration.ofMinutes(1))
                .message())
        .isEqualTo(
            "Rate limit deferred task 3f1c2a7e-0000-4000-8000-000000000001: key=tenant-7"
                + " slotUtc=2026-11-22T10:00:04Z policy=com.acme.SyncTenantData deferredCount=3");
    assertThat(new RateLimitFailOpen("com.acme.SyncTenantData", "tenant-9", 42).message())
        .isEqualTo(
            "Rate limit failed open: key=tenant-9 policy=com.acme.SyncTenantData"
                + " untrackedCount=42");
    assertThat(
            new RateLimitRejected(ID, "com.acme.SyncTenantData", "tenant-7", SLOT, Reason.DISCARDED)
                .message())
        .isEqualTo(
            "Rate limit rejected task 3f1c2a7e-0000-4000-8000-000000000001: key=tenant-7"
                + " slotUtc=2026-11-22T10:00:04Z policy=com.acme.SyncTenantData"
                + " reason=DISCARDED");
  }
}
