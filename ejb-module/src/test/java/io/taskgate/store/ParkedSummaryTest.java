package io.taskgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParkedSummaryTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void keysWithAnyCharactersSurviveTheTextRoundTrip() {
    ParkedSummary summary =
        ParkedSummary.of(
            List.of(
                new ParkedSummary.Key("a.B", "with space\nand newline", 2, T0),
                new ParkedSummary.Key("a.B", "tab\there%20+", 5, T0.plusMillis(1500)),
                new ParkedSummary.Key("c.D", "", 1, T0.plusSeconds(3))));

    assertThat(ParkedSummary.decode(summary.encode())).isEqualTo(summary);
    assertThat(summary.tasks()).isEqualTo(8);
    assertThat(summary.top()).extracting(ParkedSummary.Key::tasks).containsExactly(5, 2, 1);
  }

  @Test
  void onlyTheKeysWithTheMostParkedTasksAreListedButAllAreCounted() {
    List<ParkedSummary.Key> keys = new ArrayList<>();
    for (int i = 0; i < ParkedSummary.MAX_KEYS + 50; i++) {
      keys.add(new ParkedSummary.Key("s", "k" + i, 1 + i % 7, T0));
    }
    ParkedSummary summary = ParkedSummary.of(keys);

    assertThat(summary.keys()).isEqualTo(ParkedSummary.MAX_KEYS + 50);
    assertThat(summary.top()).hasSize(ParkedSummary.MAX_KEYS);
    assertThat(summary.unlistedKeys()).isEqualTo(50);
    assertThat(summary.tasks()).isEqualTo(keys.stream().mapToInt(ParkedSummary.Key::tasks).sum());
    assertThat(summary.top().get(ParkedSummary.MAX_KEYS - 1).tasks())
        .isGreaterThanOrEqualTo(
            keys.stream().mapToInt(ParkedSummary.Key::tasks).sorted().toArray()[49]);
    assertThat(ParkedSummary.decode(summary.encode())).isEqualTo(summary);
  }

  @Test
  void anEmptyColumnIsNothingParkedAndForeignTextIsRefused() {
    assertThat(ParkedSummary.decode(null)).isEqualTo(ParkedSummary.NONE);
    assertThat(ParkedSummary.decode("")).isEqualTo(ParkedSummary.NONE);
    assertThatThrownBy(() -> ParkedSummary.decode("p9 1 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("p9 1 1");
    assertThatThrownBy(() -> ParkedSummary.decode("p1 1 1\n1 2 x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 2 x");
  }
}
