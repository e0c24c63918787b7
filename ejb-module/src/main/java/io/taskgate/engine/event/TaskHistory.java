package io.taskgate.engine.event;

import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.TaskStatus;
import io.taskgate.engine.event.MinuteCounts.Count;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

/**
 * This instance's history of the last {@link #RETAINED_MINUTES} minutes, minute by minute, per
 * queue and task type: attempts started, tasks completed and failed (from the store's writes),
 * tasks the rate-limit gate parked or rejected (by reason) and tasks it let through unthrottled at
 * the key cap. In memory: it starts empty with the application.
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

  /**
   * The counts of the last {@code minutes} minutes up to {@code now}'s minute (included).
   *
   * @param minutes from 1 to {@link #RETAINED_MINUTES}
   */
  public List<MinuteCounts.SeriesCounts> read(Instant now, int minutes) {
    return counts.read(minuteOf(now), minutes);
  }

  /** Minutes since the epoch of {@code at} (the minute that holds it). */
  public static long minuteOf(Instant at) {
    return Math.floorDiv(at.getEpochSecond(), 60L);
  }
}
