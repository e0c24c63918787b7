package io.taskgate.engine.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.admin.dto.StatsView;
import io.taskgate.engine.cluster.ClusterWiring;
import io.taskgate.engine.event.Counted;
import io.taskgate.engine.event.HistoryPublisher;
import io.taskgate.engine.event.MinuteCounts;
import io.taskgate.engine.event.MinuteCounts.Count;
import io.taskgate.engine.event.TaskHistory;
import io.taskgate.engine.time.SettableClock;
import io.taskgate.store.MinuteRecord;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaHistoryStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The statistics of instances sharing a real database (H2 in memory), summed. */
class StatsViewsTest {
  static final Instant T0 = Instant.parse("2030-01-01T10:00:30Z");
  static final long M0 = TaskHistory.minuteOf(T0);

  final EntityManagerFactory factory = H2TestDatabase.inMemory("stats_views");
  final JpaHistoryStore store = new JpaHistoryStore(new ResourceLocalTransactor(factory));
  final SettableClock clock = new SettableClock(T0);

  @AfterEach
  void close() {
    if (factory.isOpen()) {
      factory.close();
    }
  }

  /** The views instance {@code id} serves over its own history. */
  StatsViews views(String id, TaskHistory history) {
    StatsViews views = new StatsViews();
    views.history = history;
    views.store = store;
    views.instances = ClusterWiring.instances(id, null, clock);
    views.clock = clock;
    return views;
  }

  void count(TaskHistory history, String queue, TaskStatus to, int times) {
    for (int i = 0; i < times; i++) {
      history.transition(queue, "shop.Mail", TaskStatus.QUEUED, to, clock.instant());
    }
  }

  static List<Long> last(long[] values, int n) {
    return LongStream.of(values).skip(values.length - n).boxed().toList();
  }

  @Test
  void theCountsOfEveryInstanceAreSummedMinuteByMinute() {
    TaskHistory a = new TaskHistory();
    TaskHistory b = new TaskHistory();
    count(a, "default", TaskStatus.IN_PROGRESS, 2);
    count(b, "default", TaskStatus.IN_PROGRESS, 3);
    count(b, "mail", TaskStatus.FAILED, 1);
    new HistoryPublisher(b, store).publish("b", clock.instant());
    clock.advance(Duration.ofMinutes(1));
    count(a, "default", TaskStatus.IN_PROGRESS, 1); // not yet written: a reads its own from memory
    count(b, "default", TaskStatus.IN_PROGRESS, 7); // not yet written: a does not see it yet

    StatsView view = views("a", a).stats(5, Optional.empty(), Optional.empty());

    assertThat(view.instances()).containsExactly("a", "b");
    assertThat(view.minutes()).isEqualTo(5);
    assertThat(view.from()).isEqualTo(Instant.ofEpochSecond((M0 + 1 - 4) * 60));
    assertThat(view.retainedMinutes()).isEqualTo(HistoryPublisher.KEPT_MINUTES);
    assertThat(last(view.total().started(), 2)).containsExactly(5L, 1L);
    assertThat(last(view.total().failed(), 2)).containsExactly(1L, 0L);
    assertThat(view.series())
        .extracting(StatsView.Series::queue)
        .containsExactly("default", "mail");
    StatsView mailOnly = views("a", a).stats(5, Optional.of("mail"), Optional.empty());
    assertThat(last(mailOnly.total().failed(), 2)).containsExactly(1L, 0L);
    assertThat(mailOnly.total().started()).containsOnly(0L);
  }

  /** A call to {@code limiter} counted as {@code counts} now in {@code history}. */
  void call(TaskHistory history, String limiter, Count... counts) {
    for (Count count : counts) {
      history.count(Counted.ofLimiter(limiter, count, clock.instant()));
    }
  }

  @Test
  void aLimitersCallsAreItsOwnSeriesSummedOverTheInstancesAndOutsideTheTasksTotal() {
    TaskHistory a = new TaskHistory();
    TaskHistory b = new TaskHistory();
    call(a, "partner-api", Count.CALL_GRANTED);
    call(a, "partner-api", Count.CALL_GRANTED, Count.CALL_WAITED);
    call(a, "partner-api", Count.CALL_REFUSED);
    call(b, "partner-api", Count.CALL_GRANTED);
    call(b, "partner-api", Count.FAILED_OPEN);
    call(b, "search", Count.CALL_REFUSED);
    count(a, "default", TaskStatus.IN_PROGRESS, 1);
    new HistoryPublisher(b, store).publish("b", clock.instant());

    StatsView view = views("a", a).stats(3, Optional.of("default"), Optional.empty());

    assertThat(view.limiters())
        .as("the queue and type filters name task series only")
        .extracting(StatsView.LimiterSeries::limiter)
        .containsExactly("partner-api", "search");
    StatsView.CallCounts partner = view.limiters().get(0).counts();
    assertThat(partner.granted()).containsExactly(0L, 0L, 3L);
    assertThat(partner.waited()).containsExactly(0L, 0L, 1L);
    assertThat(partner.refused()).containsExactly(0L, 0L, 1L);
    assertThat(partner.failedOpen()).containsExactly(0L, 0L, 1L);
    assertThat(view.limiters().get(1).counts().refused()).containsExactly(0L, 0L, 1L);
    assertThat(view.series()).extracting(StatsView.Series::queue).containsExactly("default");
    assertThat(view.total().failedOpen()).as("a limiter's calls are not tasks").containsOnly(0L);
    assertThat(view.total().started()).containsExactly(0L, 0L, 1L);
  }

  @Test
  void minutesBeyondWhatMemoryKeepsComeFromTheDatabaseForThisInstanceToo() {
    TaskHistory a = new TaskHistory();
    long old = M0 - TaskHistory.RETAINED_MINUTES - 30;
    store.save(
        List.of(
            new MinuteRecord("a", old, "default", "shop.Mail", 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            // a's row of a minute memory keeps: memory wins (it is empty here)
            new MinuteRecord(
                "a", M0 - 1, "default", "shop.Mail", 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));

    StatsView view = views("a", a).stats(600, Optional.empty(), Optional.empty());

    long[] started = view.total().started();
    assertThat(started).hasSize(600);
    assertThat(started[(int) (old - (M0 - 599))]).isEqualTo(9);
    assertThat(LongStream.of(started).sum()).isEqualTo(9);
    assertThat(view.instances()).containsExactly("a");
  }

  @Test
  void theDatabaseIsReadAgainForTheSameWindowOnlyAfterFiveSeconds() {
    StatsViews views = views("a", new TaskHistory());
    store.save(
        List.of(new MinuteRecord("b", M0, "q", "shop.Mail", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    assertThat(last(views.stats(5, Optional.empty(), Optional.empty()).total().started(), 1))
        .containsExactly(1L);

    store.save(
        List.of(new MinuteRecord("b", M0, "q", "shop.Mail", 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    clock.advance(Duration.ofMillis(4_999));
    assertThat(last(views.stats(5, Optional.empty(), Optional.empty()).total().started(), 1))
        .as("as read 4.999 s ago")
        .containsExactly(1L);
    clock.advance(Duration.ofMillis(1));
    assertThat(last(views.stats(5, Optional.empty(), Optional.empty()).total().started(), 1))
        .containsExactly(4L);

    store.save(
        List.of(new MinuteRecord("b", M0, "q", "shop.Mail", 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    assertThat(last(views.stats(6, Optional.empty(), Optional.empty()).total().started(), 1))
        .as("another window is read at once")
        .containsExactly(9L);
  }

  @Test
  void withoutTheDatabaseTheViewIsThisInstancesAloneAndSaysSo() {
    TaskHistory a = new TaskHistory();
    count(a, "default", TaskStatus.IN_PROGRESS, 2);
    store.save(
        List.of(
            new MinuteRecord("b", M0, "default", "shop.Mail", 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    factory.close();

    StatsView view = views("a", a).stats(60, Optional.empty(), Optional.empty());

    assertThat(view.instances()).containsExactly("a");
    assertThat(last(view.total().started(), 1)).containsExactly(2L);
  }

  @Test
  void beyond256SeriesTheRestAreSummedUnderOtherLast() {
    TaskHistory a = new TaskHistory();
    List<MinuteRecord> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      rows.add(
          new MinuteRecord(
              "b", M0 - 1, "q" + (1000 + i), "shop.Mail", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }
    store.save(rows);

    StatsView view = views("a", a).stats(60, Optional.empty(), Optional.empty());

    assertThat(view.series()).hasSize(MinuteCounts.MAX_SERIES);
    StatsView.Series other = view.series().get(MinuteCounts.MAX_SERIES - 1);
    assertThat(other.queue()).isEqualTo(MinuteCounts.OTHER);
    assertThat(LongStream.of(other.counts().started()).sum())
        .isEqualTo(300 - (MinuteCounts.MAX_SERIES - 1));
    assertThat(LongStream.of(view.total().started()).sum()).isEqualTo(300);
  }
}
