package io.taskgate.engine.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.event.MinuteCounts.Count;
import io.taskgate.engine.event.MinuteCounts.Series;
import io.taskgate.engine.event.MinuteCounts.SeriesCounts;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The per-minute history: minutes in order, a ring that forgets, and bounds on what it holds. */
class MinuteCountsTest {
  static final long M = 29_000_000L; // a minute since the epoch, in 2025

  @Test
  void countsLandInTheirMinuteAndSeriesOldestFirst() {
    MinuteCounts counts = new MinuteCounts(5);
    counts.add(M, "default", "a.Sync", Count.STARTED);
    counts.add(M, "default", "a.Sync", Count.STARTED);
    counts.add(M + 2, "default", "a.Sync", Count.PARKED);
    counts.add(M + 2, "bulk", "a.Report", Count.FAILED);

    List<SeriesCounts> read = counts.read(M + 2, 3);

    assertThat(read)
        .extracting(SeriesCounts::series)
        .containsExactly(new Series("bulk", "a.Report"), new Series("default", "a.Sync"));
    SeriesCounts sync = read.get(1);
    assertThat(sync.of(Count.STARTED)).containsExactly(2, 0, 0);
    assertThat(sync.of(Count.PARKED)).containsExactly(0, 0, 1);
    assertThat(sync.total(Count.STARTED)).isEqualTo(2);
    assertThat(read.get(0).of(Count.FAILED)).containsExactly(0, 0, 1);
  }

  @Test
  void aMinuteOutsideTheWindowReadIsLeftOut() {
    MinuteCounts counts = new MinuteCounts(5);
    counts.add(M, "default", "a.Sync", Count.STARTED);
    counts.add(M + 3, "default", "a.Sync", Count.COMPLETED);

    assertThat(counts.read(M + 3, 2))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.of(Count.STARTED)).containsExactly(0, 0);
              assertThat(s.of(Count.COMPLETED)).containsExactly(0, 1);
            });
    assertThat(counts.read(M + 1, 1)).isEmpty();
  }

  @Test
  void theRingKeepsOnlyItsLastMinutesAndIgnoresOlderOnes() {
    MinuteCounts counts = new MinuteCounts(3);
    for (long m = M; m < M + 10; m++) {
      counts.add(m, "default", "a.Sync", Count.STARTED);
    }
    counts.add(M + 2, "default", "a.Sync", Count.STARTED); // its slot holds M + 8 now

    assertThat(counts.read(M + 9, 3).get(0).of(Count.STARTED)).containsExactly(1, 1, 1);
    // asked for the minutes before the kept ones: they are gone
    assertThat(counts.read(M + 6, 3)).isEmpty();
  }

  @Test
  void pairsBeyondTheCapAreCountedTogetherUnderOther() {
    MinuteCounts counts = new MinuteCounts(2);
    for (int i = 0; i < MinuteCounts.MAX_SERIES + 50; i++) {
      counts.add(M, "q", "t" + i, Count.STARTED);
    }

    List<SeriesCounts> read = counts.read(M, 1);

    assertThat(read).hasSize(MinuteCounts.MAX_SERIES + 1);
    assertThat(read)
        .filteredOn(s -> s.series().type().equals(MinuteCounts.OTHER))
        .singleElement()
        .satisfies(s -> assertThat(s.total(Count.STARTED)).isEqualTo(50));
    assertThat(read.stream().mapToLong(s -> s.total(Count.STARTED)).sum())
        .isEqualTo(MinuteCounts.MAX_SERIES + 50);
  }

  @Test
  void aWindowLongerThanTheRingOrEmptyIsRefused() {
    MinuteCounts counts = new MinuteCounts(3);

    assertThatThrownBy(() -> counts.read(M, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("minutes must be between 1 and 3, was 4");
    assertThatThrownBy(() -> counts.read(M, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new MinuteCounts(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void threadsAddingAcrossAMinuteBoundaryLoseNoCount() throws Exception {
    MinuteCounts counts = new MinuteCounts(4);
    int threads = 4;
    int each = 20_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    for (int t = 0; t < threads; t++) {
      pool.execute(
          () -> {
            try {
              go.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
            for (int i = 0; i < each; i++) {
              counts.add(M + i * 3L / each, "default", "a.Sync", Count.STARTED);
            }
          });
    }
    go.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

    long[] started = counts.read(M + 2, 3).get(0).of(Count.STARTED);
    assertThat(started[0] + started[1] + started[2]).isEqualTo((long) threads * each);
  }

  @Test
  void theHistoryCountsStartsCompletionsAndFinalFailuresNotOtherWrites() {
    TaskHistory history = new TaskHistory();
    Instant at = Instant.ofEpochSecond(M * 60 + 30);
    history.transition("default", "a.Sync", null, TaskStatus.QUEUED, at);
    history.transition("default", "a.Sync", TaskStatus.QUEUED, TaskStatus.IN_PROGRESS, at);
    history.transition("default", "a.Sync", TaskStatus.IN_PROGRESS, TaskStatus.QUEUED, at);
    history.transition("default", "a.Sync", TaskStatus.QUEUED, TaskStatus.IN_PROGRESS, at);
    history.transition("default", "a.Sync", TaskStatus.IN_PROGRESS, TaskStatus.FAILED, at);
    history.transition("default", "a.Sync", TaskStatus.QUEUED, TaskStatus.CANCELLED, at);

    SeriesCounts read = history.read(at.plusSeconds(60), 2).get(0);

    assertThat(read.of(Count.STARTED)).containsExactly(2, 0);
    assertThat(read.of(Count.FAILED)).containsExactly(1, 0);
    assertThat(read.total(Count.COMPLETED)).isZero();
    assertThat(TaskHistory.minuteOf(at)).isEqualTo(M);
  }
}
