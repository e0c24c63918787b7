package io.taskgate.engine.admin;

import io.taskgate.engine.admin.dto.StatsView;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.event.MinuteCounts.Count;
import io.taskgate.engine.event.MinuteCounts.SeriesCounts;
import io.taskgate.engine.event.TaskHistory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The per-minute history of this instance, for {@code /api/stats} and the overview's charts. */
@ApplicationScoped
public class StatsViews {
  /** The minutes of a window unless asked otherwise. */
  public static final int DEFAULT_MINUTES = 60;

  @Inject TaskHistory history;
  @Inject Instances instances;
  @Inject InstantSource clock;
  @Inject TaskAdmin admin;

  /** How many minutes this instance keeps. */
  public int retainedMinutes() {
    return TaskHistory.RETAINED_MINUTES;
  }

  /**
   * The last {@code minutes} minutes, the current one included, of the series whose queue and type
   * match the filters given.
   *
   * @param minutes from 1 to {@link #retainedMinutes()}
   * @param queue only this queue, if given
   * @param taskType only this task type: its full class name, or a simple name no other type shares
   * @throws io.taskgate.api.UnknownTaskTypeException if {@code taskType} names no task type
   */
  public StatsView stats(int minutes, Optional<String> queue, Optional<String> taskType) {
    Optional<String> type = taskType.map(admin::resolveTaskType);
    Instant now = clock.instant();
    List<StatsView.Series> series = new ArrayList<>();
    long[][] total = new long[Count.values().length][minutes];
    for (SeriesCounts read : history.read(now, minutes)) {
      if (queue.filter(q -> !q.equals(read.series().queue())).isPresent()
          || type.filter(t -> !t.equals(read.series().type())).isPresent()) {
        continue;
      }
      series.add(new StatsView.Series(read.series().queue(), read.series().type(), counts(read)));
      for (Count count : Count.values()) {
        long[] values = read.of(count);
        for (int i = 0; i < minutes; i++) {
          total[count.ordinal()][i] += values[i];
        }
      }
    }
    Instant from = Instant.ofEpochSecond((TaskHistory.minuteOf(now) - minutes + 1) * 60);
    return new StatsView(
        instances.self(),
        from,
        minutes,
        retainedMinutes(),
        counts(count -> total[count.ordinal()]),
        List.copyOf(series));
  }

  private static StatsView.Counts counts(SeriesCounts read) {
    return counts(read::of);
  }

  private static StatsView.Counts counts(java.util.function.Function<Count, long[]> of) {
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
        of.apply(Count.FAILED_OPEN));
  }
}
