package io.taskgate.engine.event;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.event.MinuteCounts.Count;
import io.taskgate.store.MinuteRecord;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * This instance's history of the last {@link #RETAINED_MINUTES} minutes, minute by minute, per
 * queue and task type: attempts started, tasks completed and failed (from the store's writes),
 * tasks the rate-limit gate parked or rejected (by reason) and tasks it let through unthrottled at
 * the key cap, tasks the job throttlers made wait or dropped; and per {@code @RateLimited} limiter
 * (queue {@link #LIMITER}, its name as the type) the calls it let in, made wait, refused and let
 * through untracked. In memory, bounded; {@link HistoryPublisher} writes it to the database, where
 * the instances of a cluster read each other's, and reads this instance's back after a restart.
 */
@ApplicationScoped
public class TaskHistory {
  /** Minutes kept, the current one included. */
  public static final int RETAINED_MINUTES = 120;

  private final MinuteCounts counts = new MinuteCounts(RETAINED_MINUTES);

  /** One more of what {@code counted} says: the channel's {@link EngineEvents} calls it. */
  public void count(Counted counted) {
    counts.add(minuteOf(counted.at()), counted.queue(), counted.type(), counted.count());
  }

  /** A stored task went from {@code from} (null: new) to {@code to} at {@code at}. */
  public void transition(String queue, String type, TaskStatus from, TaskStatus to, Instant at) {
    Count count = countOf(from, to);
    if (count != null) {
      counts.add(minuteOf(at), queue, type, count);
    }
  }

  /** What a move from {@code from} (null: new) to {@code to} counts, if anything. */
  public static Count countOf(TaskStatus from, TaskStatus to) {
    if (from == to) {
      return null;
    }
    return switch (to) {
      case IN_PROGRESS -> Count.STARTED;
      case COMPLETED -> Count.COMPLETED;
      case FAILED -> Count.FAILED;
      default -> null;
    };
  }

  /** The queue of a {@code @RateLimited} limiter's series (its name is the series' type). */
  public static final String LIMITER = "";

  /**
   * The counts of the last {@code minutes} minutes up to {@code now}'s minute (included).
   *
   * @param minutes from 1 to {@link #RETAINED_MINUTES}
   */
  public List<MinuteCounts.SeriesCounts> read(Instant now, int minutes) {
    return counts.read(minuteOf(now), minutes);
  }

  /**
   * The counts of the minutes from {@code fromMinute} to {@code toMinute} (both included) as
   * records of {@code instance}, for the history the instances share.
   */
  public List<MinuteRecord> records(String instance, long fromMinute, long toMinute) {
    return counts.rows(fromMinute, toMinute).stream()
        .map(
            row ->
                new MinuteRecord(
                    instance,
                    row.epochMinute(),
                    row.series().queue(),
                    row.series().type(),
                    row.of(Count.STARTED),
                    row.of(Count.COMPLETED),
                    row.of(Count.FAILED),
                    row.of(Count.PARKED),
                    row.of(Count.REJECTED_BEYOND_HORIZON),
                    row.of(Count.REJECTED_DISCARDED),
                    row.of(Count.FAILED_OPEN),
                    row.of(Count.THROTTLE_WAITED),
                    row.of(Count.THROTTLE_DROPPED),
                    row.of(Count.CALL_GRANTED),
                    row.of(Count.CALL_WAITED),
                    row.of(Count.CALL_REFUSED)))
        .toList();
  }

  /**
   * Adds the counts of {@code records} (this instance's, read back after a restart) to those of
   * their minutes still kept here.
   */
  public void restore(List<MinuteRecord> records) {
    for (MinuteRecord r : records) {
      for (Count count : Count.values()) {
        counts.add(r.epochMinute(), r.queue(), r.taskType(), count, valueOf(r, count));
      }
    }
  }

  /** The value of {@code count} in {@code record}. */
  public static long valueOf(MinuteRecord record, Count count) {
    return switch (count) {
      case STARTED -> record.started();
      case COMPLETED -> record.completed();
      case FAILED -> record.failed();
      case PARKED -> record.parked();
      case REJECTED_BEYOND_HORIZON -> record.rejectedBeyondHorizon();
      case REJECTED_DISCARDED -> record.rejectedDiscarded();
      case FAILED_OPEN -> record.failedOpen();
      case THROTTLE_WAITED -> record.throttleWaited();
      case THROTTLE_DROPPED -> record.throttleDropped();
      case CALL_GRANTED -> record.callsGranted();
      case CALL_WAITED -> record.callsWaited();
      case CALL_REFUSED -> record.callsRefused();
    };
  }

  /** Minutes since the epoch of {@code at} (the minute that holds it). */
  public static long minuteOf(Instant at) {
    return Math.floorDiv(at.getEpochSecond(), 60L);
  }
}
