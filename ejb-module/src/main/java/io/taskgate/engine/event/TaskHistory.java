package io.taskgate.engine.event;

import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.TaskStatus;
import io.taskgate.engine.event.MinuteCounts.Count;
import io.taskgate.store.MinuteRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
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

  private final InstantSource clock;
  private final MinuteCounts counts = new MinuteCounts(RETAINED_MINUTES);

  /** For the container's proxy. */
  TaskHistory() {
    this(null);
  }

  /**
   * @param clock the wall clock: the minute of what the gate reports
   */
  @Inject
  public TaskHistory(InstantSource clock) {
    this.clock = clock;
  }

  /** A stored task went from {@code from} (null: new) to {@code to} at {@code at}. */
  public void transition(String queue, String type, TaskStatus from, TaskStatus to, Instant at) {
    Count count =
        switch (to) {
          case IN_PROGRESS -> Count.STARTED;
          case COMPLETED -> Count.COMPLETED;
          case FAILED -> Count.FAILED;
          default -> null;
        };
    if (count != null && from != to) {
      counts.add(minuteOf(at), queue, type, count);
    }
  }

  /** The rate-limit gate parked a task of {@code type} on {@code queue} until its key's slot. */
  public void parked(String queue, String type) {
    counts.add(minuteOf(clock.instant()), queue, type, Count.PARKED);
  }

  /** The rate-limit gate rejected a task of {@code type} on {@code queue} for {@code reason}. */
  public void rejected(String queue, String type, RateLimitRejectedException.Reason reason) {
    counts.add(
        minuteOf(clock.instant()),
        queue,
        type,
        reason == RateLimitRejectedException.Reason.DISCARDED
            ? Count.REJECTED_DISCARDED
            : Count.REJECTED_BEYOND_HORIZON);
  }

  /** A task of {@code type} on {@code queue} ran unthrottled: its key could not be tracked. */
  public void failedOpen(String queue, String type) {
    counts.add(minuteOf(clock.instant()), queue, type, Count.FAILED_OPEN);
  }

  /** A job throttler made a task of {@code type} on {@code queue} wait (its first refusal). */
  public void throttleWaited(String queue, String type) {
    counts.add(minuteOf(clock.instant()), queue, type, Count.THROTTLE_WAITED);
  }

  /** A job throttler dropped a task of {@code type} on {@code queue}. */
  public void throttleDropped(String queue, String type) {
    counts.add(minuteOf(clock.instant()), queue, type, Count.THROTTLE_DROPPED);
  }

  /** The queue of a {@code @RateLimited} limiter's series (its name is the series' type). */
  public static final String LIMITER = "";

  /**
   * A {@code @RateLimited} limiter named {@code limiter} let a call in ({@code waited}: after it
   * waited for a permit).
   */
  public void callGranted(String limiter, boolean waited) {
    long minute = minuteOf(clock.instant());
    counts.add(minute, LIMITER, limiter, Count.CALL_GRANTED);
    if (waited) {
      counts.add(minute, LIMITER, limiter, Count.CALL_WAITED);
    }
  }

  /** A {@code @RateLimited} limiter named {@code limiter} refused a call. */
  public void callRefused(String limiter) {
    counts.add(minuteOf(clock.instant()), LIMITER, limiter, Count.CALL_REFUSED);
  }

  /**
   * A {@code @RateLimited} limiter let a call through untracked: it tracked all the keys it may.
   */
  public void callFailedOpen(String limiter) {
    counts.add(minuteOf(clock.instant()), LIMITER, limiter, Count.FAILED_OPEN);
  }

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
