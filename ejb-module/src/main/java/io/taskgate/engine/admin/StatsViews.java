package io.taskgate.engine.admin;

import io.taskgate.engine.admin.dto.StatsView;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.event.HistoryPublisher;
import io.taskgate.engine.event.MinuteCounts;
import io.taskgate.engine.event.MinuteCounts.Count;
import io.taskgate.engine.event.MinuteCounts.Series;
import io.taskgate.engine.event.MinuteCounts.SeriesCounts;
import io.taskgate.engine.event.TaskHistory;
import io.taskgate.store.HistoryStore;
import io.taskgate.store.MinuteRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The per-minute history of the instances sharing the database, for {@code /api/stats} and the
 * charts of the overview and the throttlers page (tasks per queue and type, calls per limiter):
 * this instance's from memory (up to the second), the others' (and this one's beyond what memory
 * keeps) from the rows {@link HistoryPublisher} writes at each heartbeat, read at most every {@link
 * #REREAD_AFTER} for a window.
 */
@ApplicationScoped
public class StatsViews {
  private static final Logger LOG = Logger.getLogger(StatsViews.class.getName());

  /** The minutes of a window unless asked otherwise. */
  public static final int DEFAULT_MINUTES = 60;

  @Inject TaskHistory history;
  @Inject HistoryStore store;
  @Inject Instances instances;
  @Inject InstantSource clock;
  @Inject TaskAdmin admin;

  private volatile Instant warned; // when the last failed read was logged

  /** How many minutes can be asked for: those the database keeps. */
  public int retainedMinutes() {
    return HistoryPublisher.KEPT_MINUTES;
  }

  /**
   * The last {@code minutes} minutes, the current one included, of the series whose queue and type
   * match the filters given, summed over the instances. If the database cannot be read, the view
   * holds this instance's counts alone, and says so in {@link StatsView#instances()}.
   *
   * @param minutes from 1 to {@link #retainedMinutes()}
   * @param queue only this queue, if given
   * @param taskType only this task type: its full class name, or a simple name no other type shares
   * @throws io.taskgate.api.UnknownTaskTypeException if {@code taskType} names no task type
   */
  public StatsView stats(int minutes, Optional<String> queue, Optional<String> taskType) {
    Optional<String> type = taskType.map(name -> admin.resolveTaskType(name));
    Instant now = clock.instant();
    long last = TaskHistory.minuteOf(now);
    long first = last - minutes + 1;
    int inMemory = Math.min(minutes, TaskHistory.RETAINED_MINUTES);
    long memoryFirst = last - inMemory + 1;
    Map<Series, long[][]> sums = new TreeMap<>(BY_QUEUE_THEN_TYPE);
    for (SeriesCounts read : history.read(now, inMemory)) {
      if (matches(read.series(), queue, type)) {
        long[][] into = sums.computeIfAbsent(read.series(), s -> new long[COUNTS.length][minutes]);
        for (Count count : COUNTS) {
          long[] values = read.of(count);
          for (int i = 0; i < inMemory; i++) {
            into[count.ordinal()][(int) (memoryFirst - first) + i] += values[i];
          }
        }
      }
    }
    String self = instances.self();
    TreeSet<String> summed = new TreeSet<>(List.of(self));
    try {
      for (MinuteRecord row : stored(first, last, now)) {
        if (row.instance().equals(self) && row.epochMinute() >= memoryFirst) {
          continue; // memory has it, and more recent
        }
        summed.add(row.instance());
        Series series = new Series(row.queue(), row.taskType());
        if (matches(series, queue, type)) {
          long[][] into = sums.computeIfAbsent(series, s -> new long[COUNTS.length][minutes]);
          for (Count count : COUNTS) {
            into[count.ordinal()][(int) (row.epochMinute() - first)] +=
                TaskHistory.valueOf(row, count);
          }
        }
      }
    } catch (RuntimeException e) {
      // the read failed as a whole: the sums hold this instance's counts alone, as summed says
      if (warned == null || !now.isBefore(warned.plusSeconds(60))) {
        warned = now;
        LOG.log(
            Level.WARNING,
            "Taskgate could not read the per-minute history of the other instances; the"
                + " statistics show this instance's alone",
            e);
      }
    }
    return view(summed, first, minutes, sums);
  }

  /**
   * The rows of the minutes {@code first} to {@code last} as the database has them, read again when
   * they are older than {@link #REREAD_AFTER} (the peers write theirs every heartbeat, and the
   * pages ask every 2 s).
   */
  private List<MinuteRecord> stored(long first, long last, Instant now) {
    Read read = lastRead;
    if (read == null
        || read.first() != first
        || read.last() != last
        || !now.isBefore(read.at().plus(REREAD_AFTER))
        || now.isBefore(read.at())) {
      read = new Read(first, last, now, store.read(first, last, Optional.empty()));
      lastRead = read;
    }
    return read.rows();
  }

  /** How long the rows read from the database serve. */
  static final Duration REREAD_AFTER = Duration.ofSeconds(5);

  private record Read(long first, long last, Instant at, List<MinuteRecord> rows) {}

  private volatile Read lastRead;

  private static final Count[] COUNTS = Count.values();

  private static final Series OTHER = new Series(MinuteCounts.OTHER, MinuteCounts.OTHER);

  private static final Comparator<Series> BY_QUEUE_THEN_TYPE =
      Comparator.comparing(Series::queue).thenComparing(Series::type);

  private static boolean matches(Series series, Optional<String> queue, Optional<String> type) {
    return series.queue().equals(TaskHistory.LIMITER)
        || queue.filter(q -> !q.equals(series.queue())).isEmpty()
            && type.filter(t -> !t.equals(series.type())).isEmpty();
  }

  private static StatsView view(
      TreeSet<String> summed, long first, int minutes, Map<Series, long[][]> sums) {
    Map<Series, long[][]> tasks = new TreeMap<>(BY_QUEUE_THEN_TYPE);
    Map<Series, long[][]> limiters = new TreeMap<>(BY_QUEUE_THEN_TYPE);
    sums.forEach(
        (series, counts) ->
            (series.queue().equals(TaskHistory.LIMITER) ? limiters : tasks).put(series, counts));
    long[][] total = new long[COUNTS.length][minutes];
    tasks.values().forEach(counts -> add(total, counts));
    return new StatsView(
        List.copyOf(summed),
        Instant.ofEpochSecond(first * 60),
        minutes,
        HistoryPublisher.KEPT_MINUTES,
        counts(count -> total[count.ordinal()]),
        capped(
            tasks,
            minutes,
            OTHER,
            (s, c) ->
                new StatsView.Series(s.queue(), s.type(), counts(count -> c[count.ordinal()]))),
        capped(
            limiters,
            minutes,
            new Series(TaskHistory.LIMITER, MinuteCounts.OTHER),
            (s, c) -> new StatsView.LimiterSeries(s.type(), calls(count -> c[count.ordinal()]))));
  }

  /**
   * The views of {@code sums}, in their order, at most {@link MinuteCounts#MAX_SERIES}: beyond, the
   * rest summed under {@code other}, last.
   */
  private static <T> List<T> capped(
      Map<Series, long[][]> sums, int minutes, Series other, BiFunction<Series, long[][], T> view) {
    List<T> views = new ArrayList<>();
    long[][] rest = null;
    for (Map.Entry<Series, long[][]> entry : sums.entrySet()) {
      if (!entry.getKey().equals(other)
          && (sums.size() <= MinuteCounts.MAX_SERIES
              || views.size() < MinuteCounts.MAX_SERIES - 1)) {
        views.add(view.apply(entry.getKey(), entry.getValue()));
      } else {
        rest = rest == null ? new long[COUNTS.length][minutes] : rest;
        add(rest, entry.getValue());
      }
    }
    if (rest != null) {
      views.add(view.apply(other, rest));
    }
    return List.copyOf(views);
  }

  private static StatsView.CallCounts calls(Function<Count, long[]> of) {
    return new StatsView.CallCounts(
        of.apply(Count.CALL_GRANTED),
        of.apply(Count.CALL_WAITED),
        of.apply(Count.CALL_REFUSED),
        of.apply(Count.FAILED_OPEN));
  }

  private static void add(long[][] into, long[][] counts) {
    for (int c = 0; c < counts.length; c++) {
      for (int i = 0; i < counts[c].length; i++) {
        into[c][i] += counts[c][i];
      }
    }
  }

  private static StatsView.Counts counts(Function<Count, long[]> of) {
    long[] horizon = of.apply(Count.REJECTED_BEYOND_HORIZON);
    long[] discarded = of.apply(Count.REJECTED_DISCARDED);
    long[] rejected = new long[horizon.length];
    for (int i = 0; i < rejected.length; i++) {
      rejected[i] = horizon[i] + discarded[i];
    }
    return new StatsView.Counts(
        of.apply(Count.STARTED),
        of.apply(Count.COMPLETED),
        of.apply(Count.FAILED),
        of.apply(Count.PARKED),
        rejected,
        horizon,
        discarded,
        of.apply(Count.FAILED_OPEN),
        of.apply(Count.THROTTLE_WAITED),
        of.apply(Count.THROTTLE_DROPPED));
  }
}
