package io.taskgate.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.EngineParts;
import io.taskgate.engine.LogCapture;
import io.taskgate.engine.time.ManualTicker;
import io.taskgate.store.TaskFilter;
import io.taskgate.store.TaskPruning;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** Retention's settings and one run of the pruner, on a scripted store. */
class RetentionTest {
  static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

  final List<TaskFilter> asked = new ArrayList<>();
  final List<Boolean> exclusive = new ArrayList<>();
  final Deque<Integer> answers = new ArrayDeque<>();
  final List<Long> pauses = new ArrayList<>();
  final ManualTicker ticker = new ManualTicker();

  final TaskPruning pruning =
      (filter, max, lock) -> {
        asked.add(filter);
        exclusive.add(lock);
        ticker.advance(Duration.ofMillis(40)); // each batch takes 40 ms
        Integer answer = answers.poll();
        if (answer == null) {
          throw new IllegalStateException("the database went away");
        }
        return answer;
      };

  Retention retention(Map<String, String> settings) {
    Retention retention =
        new Retention(pruning, InstantSource.fixed(NOW), ticker, EngineParts.config(settings));
    retention.pause = pauses::add;
    retention.configure();
    return retention;
  }

  @Test
  void byDefaultCompletedTasksAreKeptAWeekAndFailedAndCancelledOnesAMonth() {
    RetentionSettings settings = RetentionSettings.read(key -> java.util.Optional.empty());

    assertThat(settings.ages())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                TaskStatus.COMPLETED, Duration.ofDays(7),
                TaskStatus.FAILED, Duration.ofDays(30),
                TaskStatus.CANCELLED, Duration.ofDays(30)));
    assertThat(settings.interval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(settings.batch()).isEqualTo(1_000);
  }

  @Test
  void aRunDeletesEachStatusOlderThanItsAgeBatchAfterBatchPausingAfterEachFullOne() {
    Retention retention =
        retention(
            Map.of(
                "taskgate.retention.completed", "PT1H",
                "taskgate.retention.failed", "forever",
                "taskgate.retention.batch", "100"));
    answers.addAll(List.of(100, 100, 30, 0)); // completed: 230; cancelled: none

    Retention.Run run = retention.prune();

    assertThat(run).isEqualTo(new Retention.Run(NOW, 230, false, null));
    assertThat(asked)
        .containsExactly(
            completedBefore(NOW.minus(Duration.ofHours(1))),
            completedBefore(NOW.minus(Duration.ofHours(1))),
            completedBefore(NOW.minus(Duration.ofHours(1))),
            TaskFilter.of(Set.of(TaskStatus.CANCELLED))
                .withChangedBefore(NOW.minus(Duration.ofDays(30))));
    assertThat(exclusive).containsOnly(true);
    // as long as each full batch took: the database is held at most half the time
    assertThat(pauses).containsExactly(40_000_000L, 40_000_000L);
    assertThat(retention.deletedTotal()).isEqualTo(230);
    assertThat(retention.last()).isEqualTo(run);
  }

  @Test
  void anotherInstanceHoldingTheLockTakesTheRunOver() {
    Retention retention = retention(Map.of());
    answers.addAll(List.of(1_000, TaskPruning.BUSY));

    Retention.Run run = retention.prune();

    assertThat(run.deleted()).isEqualTo(1_000);
    assertThat(run.busy()).isTrue();
    assertThat(asked).hasSize(2);
  }

  @Test
  void aFailingStoreStopsTheRunWithAWarningAndTheNextRunTriesAgain() {
    Retention retention = retention(Map.of());
    answers.add(1_000);
    try (LogCapture log = new LogCapture(Retention.class, Level.WARNING)) {
      Retention.Run run = retention.prune();

      assertThat(run.deleted()).isEqualTo(1_000);
      assertThat(run.error()).isEqualTo("the database went away");
      assertThat(log.messages(Level.WARNING))
          .containsExactly(
              "Taskgate's retention stopped after deleting 1000 ended task(s); it tries again in"
                  + " PT1M");
    }
    answers.addAll(List.of(0, 0, 0));
    assertThat(retention.prune()).isEqualTo(new Retention.Run(NOW, 0, false, null));
    assertThat(retention.deletedTotal()).isEqualTo(1_000);
  }

  @Test
  void aBadSettingIsRefusedNamingItAndItsValue() {
    assertThatThrownBy(() -> retention(Map.of("taskgate.retention.failed", "30 days")))
        .hasMessage(
            "Configuration taskgate.retention.failed must be an ISO-8601 duration of at least"
                + " PT1M, such as P7D, or forever, was '30 days'");
    assertThatThrownBy(() -> retention(Map.of("taskgate.retention.completed", "PT30S")))
        .hasMessageContaining("taskgate.retention.completed")
        .hasMessageContaining("'PT30S'");
    assertThatThrownBy(() -> retention(Map.of("taskgate.retention.batch", "0")))
        .hasMessage(
            "Configuration taskgate.retention.batch must be a whole number from 1 to 10000, was"
                + " '0'");
    assertThatThrownBy(() -> retention(Map.of("taskgate.retention.interval", "PT1S")))
        .hasMessageContaining("taskgate.retention.interval");
  }

  @Test
  void everyStatusKeptForeverMeansNoRunAtAll() {
    Retention retention =
        retention(
            Map.of(
                "taskgate.retention.completed", "forever",
                "taskgate.retention.failed", "FOREVER",
                "taskgate.retention.cancelled", "forever"));

    assertThat(retention.settings().ages()).isEmpty();
    assertThat(retention.prune()).isEqualTo(new Retention.Run(NOW, 0, false, null));
    assertThat(asked).isEmpty();
  }

  private static TaskFilter completedBefore(Instant before) {
    return TaskFilter.of(Set.of(TaskStatus.COMPLETED)).withChangedBefore(before);
  }
}
