package io.taskgate.web.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.LimiterStats;
import io.taskgate.engine.admin.dto.PolicyView;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DisplayTest {
  private static final Instant NOW = Instant.parse("2026-11-22T05:00:00Z");
  private final Display display = new Display();

  @ParameterizedTest
  @CsvSource({
    "2026-11-22T05:00:08.250Z, in 8.3 s",
    "2026-11-22T04:59:57Z, 3 s ago",
    "2026-11-22T05:00:00.200Z, in 200 ms",
    "2026-11-22T05:02:05Z, in 2 min 5 s",
    "2026-11-22T07:30:00Z, in 2 h 30 min"
  })
  void relativeTimes(String at, String expected) {
    assertThat(Display.relative(Instant.parse(at), NOW)).isEqualTo(expected);
  }

  @Test
  void timesAreUtcToTheSecondWithTheExactInstantForTheBrowser() {
    assertThat(display.time(Instant.parse("2026-11-22T05:12:03.25Z")))
        .isEqualTo("2026-11-22 05:12:03 UTC");
    assertThat(display.iso(Instant.parse("2026-11-22T05:12:03.25Z")))
        .isEqualTo("2026-11-22T05:12:03.250Z");
    assertThat(display.time(null)).isEmpty();
    assertThat(display.iso(null)).isEmpty();
  }

  @Test
  void simpleTypeNamesOfNestedAndTopLevelClasses() {
    assertThat(display.simpleType("io.taskgate.it.engine.GatedTasks$Hot")).isEqualTo("Hot");
    assertThat(display.simpleType("io.taskgate.web.examples.SyncTenantData"))
        .isEqualTo("SyncTenantData");
  }

  @Test
  void policiesNameTheOptionsThatDifferFromTheDefaults() {
    PolicyView plain =
        new PolicyView(
            15,
            Duration.ofMinutes(1),
            15,
            Duration.ofSeconds(4),
            true,
            false,
            Duration.ofHours(1),
            "WAIT_FOR_CAPACITY");
    PolicyView special =
        new PolicyView(
            1,
            Duration.ofSeconds(10),
            1,
            Duration.ofSeconds(10),
            false,
            true,
            Duration.ofHours(1),
            "DISCARD");

    assertThat(display.policy(plain)).isEqualTo("15 per 1 min, burst 15");
    assertThat(display.policy(special))
        .isEqualTo("1 per 10 s, burst 1, starts empty, retries unthrottled, overflow DISCARD");
  }

  @Test
  void aLimiterReadsAsItsLimitOrItsPermitsAtOnce() {
    assertThat(display.limiter(stats(LimiterAlgorithm.SLIDING_LOG, 5, Duration.ofSeconds(1), 5)))
        .isEqualTo("5 per 1 s, burst 5");
    assertThat(display.limiter(stats(LimiterAlgorithm.CONCURRENCY, 3, Duration.ofSeconds(1), 3)))
        .isEqualTo("3 at once");
    assertThat(display.limiter(null)).isEmpty();
  }

  private static LimiterStats stats(
      LimiterAlgorithm algorithm, int permits, Duration period, int burst) {
    return new LimiterStats(
        "quotes", algorithm, permits, period, burst, false, 0, 0, 0, 0, Duration.ZERO, 0, 0, 100);
  }

  @Test
  void durationsReadAsTheEngineSaysThem() {
    assertThat(display.duration(Duration.ofSeconds(200))).isEqualTo("3 min 20 s");
    assertThat(display.duration(null)).isEmpty();
  }

  @Test
  void aTasksLastErrorReadsAsASentence() {
    assertThat(
            display.error(
                "io.taskgate.api.RateLimitRejectedException: Rate limit rejected task of type"
                    + " a.Sync: reason=BEYOND_HORIZON key=tenant 7 slotUtc=2030-01-01T00:00:00Z"
                    + " handler=a.SyncHandler permits=5 period=PT1S burst=5"))
        .isEqualTo(
            "Rejected by the rate limit: the next slot of key tenant 7 (2030-01-01T00:00:00Z) lay"
                + " beyond the policy's horizon");
    assertThat(
            display.error(
                "io.taskgate.api.RateLimitRejectedException: Rate limit rejected task of type"
                    + " a.Sync: reason=DISCARDED key=acme slotUtc=2030-01-01T00:00:00Z"
                    + " handler=a.SyncHandler permits=5"))
        .isEqualTo("Rejected by the rate limit: key acme had no budget, and its policy discards");
    assertThat(display.error("java.lang.IllegalStateException: the partner said 503\nretry later"))
        .isEqualTo("the partner said 503\nretry later (IllegalStateException)");
    assertThat(display.error("com.acme.Outer$Failure: boom")).isEqualTo("boom (Outer$Failure)");
    assertThat(display.error("Cancelled by admin on the admin page"))
        .isEqualTo("Cancelled by admin on the admin page");
    assertThat(display.error(null)).isEmpty();
  }

  @Test
  void urlPartsAreEncoded() {
    assertThat(display.url("<script>alert(1)</script> &x=1"))
        .isEqualTo("%3Cscript%3Ealert%281%29%3C%2Fscript%3E+%26x%3D1");
  }
}
