package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.throttle.PushBack;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PushBacksTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  final PushBacks pushBacks = new PushBacks();

  @Test
  void aKeysLastPushBackIsShownForAnHour() {
    pushBacks.record("Sync", "acme", new PushBack(T0, T0.plusSeconds(30), "429"));
    PushBack later = new PushBack(T0.plusSeconds(60), T0.plusSeconds(120), "503 slow down");
    pushBacks.record("Sync", "acme", later);

    assertThat(pushBacks.last("Sync", "acme", T0.plusSeconds(61))).isEqualTo(later);
    assertThat(pushBacks.last("Sync", "other", T0)).isNull();
    assertThat(pushBacks.last("Other", "acme", T0)).isNull();
    assertThat(pushBacks.last("Sync", "acme", T0.plusSeconds(60).plus(PushBacks.KEEP)))
        .isEqualTo(later);
    assertThat(pushBacks.last("Sync", "acme", T0.plusSeconds(61).plus(PushBacks.KEEP))).isNull();
  }

  @Test
  void atMostMaxKeysAreKeptTheOldestForgottenFirst() {
    for (int i = 0; i <= PushBacks.MAX_KEYS; i++) {
      pushBacks.record("Sync", "k" + i, new PushBack(T0, T0.plus(Duration.ofSeconds(1)), "429"));
    }
    pushBacks.record("Sync", "k1", new PushBack(T0, T0.plusSeconds(2), "again")); // k1 is newest

    assertThat(pushBacks.last("Sync", "k0", T0)).isNull();
    assertThat(pushBacks.last("Sync", "k1", T0).reason()).isEqualTo("again");
    pushBacks.record("Sync", "new", new PushBack(T0, T0, "429"));
    assertThat(pushBacks.last("Sync", "k2", T0)).as("the oldest now").isNull();
    assertThat(pushBacks.last("Sync", "k" + PushBacks.MAX_KEYS, T0)).isNotNull();
  }
}
