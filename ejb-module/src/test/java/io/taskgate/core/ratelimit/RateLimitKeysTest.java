package io.taskgate.core.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RateLimitKeysTest {

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {"NULL, NULL", "'', NULL", "tenant-1, tenant-1", "' ', ' '"})
  void shortKeysAreKeptAndEmptyOnesDisableTheGate(String declared, String expected) {
    assertThat(RateLimitKeys.normalize(declared, 256)).isEqualTo(expected);
  }

  @Test
  void keysLongerThanTheMaximumAreHashedWithSha256() {
    String exactly = "x".repeat(256);
    String longer = "x".repeat(257);

    assertThat(RateLimitKeys.normalize(exactly, 256)).isSameAs(exactly);
    // The SHA-256 of 257 ASCII x's, computed independently.
    assertThat(RateLimitKeys.normalize(longer, 256))
        .isEqualTo("sha256:15eb95a462ee20bd91a415ae2d4aed341288186ddaa2b37908f7d592f0c3f85f")
        .isNotEqualTo(RateLimitKeys.normalize(longer + "y", 256));
  }

  @Test
  void epochNanosRoundTrip() {
    Instant instant = Instant.parse("2026-11-22T10:15:30.123456789Z");

    assertThat(EpochNanos.toInstant(EpochNanos.of(instant))).isEqualTo(instant);
    assertThat(EpochNanos.toInstant(-1)).isEqualTo(Instant.parse("1969-12-31T23:59:59.999999999Z"));
  }
}
