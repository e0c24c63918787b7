package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.engine.throttle.PacingMark;
import io.taskgate.engine.throttle.PacingMark.Kind;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PacingLogTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  @Test
  void aKeyKeepsItsLastMarksOldestFirst() {
    PacingLog log = new PacingLog(10);
    log.reserved("Mail", "k", T0, T0.plusMillis(200));
    for (int i = 0; i < PacingLog.MARKS_PER_KEY + 50; i++) {
      log.started("Mail", "k", T0.plusMillis(i + 1), i % 2 == 0 ? null : T0.plusMillis(i));
    }

    List<PacingMark> marks = log.marks("Mail", "k").orElseThrow();

    assertThat(marks).hasSize(PacingLog.MARKS_PER_KEY);
    assertThat(marks.get(0).at())
        .isEqualTo(T0.plusMillis(51)); // the 50 oldest and the reservation are gone
    assertThat(marks.get(marks.size() - 1).at()).isEqualTo(T0.plusMillis(250));
    assertThat(marks).allMatch(m -> m.kind() == Kind.STARTED);
    assertThat(marks).isSortedAccordingTo(java.util.Comparator.comparing(PacingMark::at));
  }

  @Test
  void startsAreRecordedWhileThereIsRoomAndReservationsAlways() {
    PacingLog log = new PacingLog(2);
    log.started("Mail", "a", T0, null);
    log.started("Mail", "b", T0, null);
    log.started("Mail", "c", T0, null); // no room: not recorded
    assertThat(log.marks("Mail", "c")).isEmpty();
    assertThat(log.keys()).isEqualTo(2);

    log.reserved("Mail", "c", T0.plusSeconds(1), T0.plusSeconds(2)); // always recorded
    assertThat(log.marks("Mail", "c").orElseThrow())
        .containsExactly(new PacingMark(Kind.RESERVED, T0.plusSeconds(1), T0.plusSeconds(2)));
    log.started("Mail", "c", T0.plusSeconds(2), T0.plusSeconds(2)); // has a ring now
    assertThat(log.marks("Mail", "c").orElseThrow()).hasSize(2);
  }

  @Test
  void overTheCapTheLeastRecentlyActiveKeysAreForgotten() {
    PacingLog log = new PacingLog(4);
    for (int i = 0; i < 4; i++) {
      log.reserved("Mail", "k" + i, T0.plusSeconds(i), T0.plusSeconds(10));
    }
    log.reserved("Mail", "k0", T0.plusSeconds(20), T0.plusSeconds(30)); // k0 active again
    log.reserved("Sync", "n1", T0.plusSeconds(21), T0.plusSeconds(30)); // 5 of 4: within a quarter
    assertThat(log.keys()).isEqualTo(5);
    log.reserved("Sync", "n2", T0.plusSeconds(22), T0.plusSeconds(30)); // 6: evicts down to 4

    assertThat(log.keys()).isEqualTo(4);
    assertThat(log.marks("Mail", "k1")).isEmpty();
    assertThat(log.marks("Mail", "k2")).isEmpty();
    assertThat(log.marks("Mail", "k0")).isPresent();
    assertThat(log.marks("Mail", "k3")).isPresent();
    assertThat(log.marks("Sync", "n2")).isPresent();
  }

  @Test
  void theSameKeyInAnotherTaskTypeIsAnotherRing() {
    PacingLog log = new PacingLog(10);
    log.reserved("Mail", "k", T0, T0.plusSeconds(1));
    assertThat(log.marks("Sync", "k")).isEmpty();
  }

  @Test
  void aCapBelowOneIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> new PacingLog(0))
        .hasMessage("Configuration taskgate.monitor.pacing-keys must be at least 1, was 0");
  }
}
