package io.taskgate.engine.event;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Counts of what happened to tasks, per minute and per (queue, task type), for the last {@link
 * #retainedMinutes()} minutes: a ring of minutes, each replaced when its slot comes round again.
 * Bounded: at most {@link #MAX_SERIES} (queue, type) pairs a minute, the rest counted under {@link
 * #OTHER}. A pair with an empty queue is a {@code @RateLimited} limiter's (its name as the type):
 * beyond the bound, limiters are counted under ("", {@link #OTHER}). The minute is given by the
 * caller (minutes since the epoch); nothing here reads a clock. Adding is lock-free; a reader sees
 * each counter as it is when read.
 */
public final class MinuteCounts {
  /** At most this many (queue, type) pairs are counted apart in a minute. */
  public static final int MAX_SERIES = 256;

  /** The queue and type counted for pairs beyond {@link #MAX_SERIES} in a minute. */
  public static final String OTHER = "(other)";

  /** What is counted. */
  public enum Count {
    /** An attempt started (the task went from QUEUED to IN_PROGRESS). */
    STARTED,
    /** A task completed. */
    COMPLETED,
    /** A task failed for good (its retries spent, or it was rejected). */
    FAILED,
    /** The rate-limit gate parked a task until its key's next slot. */
    PARKED,
    /** The rate-limit gate rejected a task: its slot lay beyond the policy's horizon. */
    REJECTED_BEYOND_HORIZON,
    /** The rate-limit gate rejected a task: no budget, and the policy discards. */
    REJECTED_DISCARDED,
    /** A task ran unthrottled because the limiter tracked as many keys as it may. */
    FAILED_OPEN,
    /** A job throttler (mutex, semaphore, window) made a task wait (counted at its first wait). */
    THROTTLE_WAITED,
    /** A job throttler dropped a task (throttling action DROP, or its max wait passed). */
    THROTTLE_DROPPED,
    /** A {@code @RateLimited} limiter let a call in (at once or after a wait). */
    CALL_GRANTED,
    /** A {@code @RateLimited} limiter let a call in after it waited for a permit. */
    CALL_WAITED,
    /** A {@code @RateLimited} limiter refused a call. */
    CALL_REFUSED
  }

  private static final Count[] COUNTS = Count.values();

  /** One (queue, task type) pair. */
  public record Series(String queue, String type) {}

  private record Minute(long epochMinute, ConcurrentHashMap<Series, AtomicLongArray> counts) {
    Minute(long epochMinute) {
      this(epochMinute, new ConcurrentHashMap<>());
    }
  }

  private final AtomicReferenceArray<Minute> ring;

  /**
   * @param retainedMinutes how many minutes are kept, the current one included
   */
  public MinuteCounts(int retainedMinutes) {
    if (retainedMinutes < 1) {
      throw new IllegalArgumentException(
          "retainedMinutes must be at least 1, was " + retainedMinutes);
    }
    this.ring = new AtomicReferenceArray<>(retainedMinutes);
  }

  /** How many minutes are kept, the current one included. */
  public int retainedMinutes() {
    return ring.length();
  }

  /**
   * Counts one {@code count} of {@code type} on {@code queue} in {@code epochMinute}. A minute
   * older than those kept (its slot already holds a later one) is not counted.
   */
  public void add(long epochMinute, String queue, String type, Count count) {
    add(epochMinute, queue, type, count, 1);
  }

  /**
   * Counts {@code value} more {@code count} of {@code type} on {@code queue} in {@code
   * epochMinute}, as {@link #add(long, String, String, Count)} does one: for counts read back from
   * where they were kept.
   */
  public void add(long epochMinute, String queue, String type, Count count, long value) {
    if (value == 0) {
      return;
    }
    Minute minute = minute(epochMinute);
    if (minute == null) {
      return;
    }
    Series series = new Series(queue == null ? "" : queue, type == null ? "" : type);
    AtomicLongArray counts = minute.counts().get(series);
    if (counts == null) {
      if (minute.counts().size() >= MAX_SERIES) {
        series = new Series(series.queue().isEmpty() ? "" : OTHER, OTHER); // a limiter stays one
      }
      counts = minute.counts().computeIfAbsent(series, s -> new AtomicLongArray(COUNTS.length));
    }
    counts.addAndGet(count.ordinal(), value);
  }

  /**
   * The ring's minute for {@code epochMinute}, replacing an older one in its slot; null if gone.
   */
  private Minute minute(long epochMinute) {
    int slot = (int) Math.floorMod(epochMinute, (long) ring.length());
    while (true) {
      Minute held = ring.get(slot);
      if (held != null && held.epochMinute() == epochMinute) {
        return held;
      }
      if (held != null && held.epochMinute() > epochMinute) {
        return null;
      }
      Minute fresh = new Minute(epochMinute);
      if (ring.compareAndSet(slot, held, fresh)) {
        return fresh;
      }
    }
  }

  /**
   * The counts of the {@code minutes} minutes ending with {@code lastMinute} (included), per
   * (queue, type) pair that counted anything in them, ordered by queue then type; a minute not kept
   * or with nothing counted reads as zeros.
   *
   * @param minutes how many minutes, from 1 to {@link #retainedMinutes()}
   */
  public List<SeriesCounts> read(long lastMinute, int minutes) {
    if (minutes < 1 || minutes > ring.length()) {
      throw new IllegalArgumentException(
          "minutes must be between 1 and " + ring.length() + ", was " + minutes);
    }
    long first = lastMinute - minutes + 1;
    Map<Series, EnumMap<Count, long[]>> read = new HashMap<>();
    for (int i = 0; i < ring.length(); i++) {
      Minute minute = ring.get(i);
      if (minute == null || minute.epochMinute() < first || minute.epochMinute() > lastMinute) {
        continue;
      }
      int at = (int) (minute.epochMinute() - first);
      minute
          .counts()
          .forEach(
              (series, counts) -> {
                EnumMap<Count, long[]> of = read.computeIfAbsent(series, s -> emptyCounts(minutes));
                for (Count count : COUNTS) {
                  of.get(count)[at] += counts.get(count.ordinal());
                }
              });
    }
    List<SeriesCounts> series = new ArrayList<>(read.size());
    read.forEach((s, counts) -> series.add(new SeriesCounts(s, counts)));
    series.sort(
        Comparator.comparing((SeriesCounts c) -> c.series().queue())
            .thenComparing(c -> c.series().type()));
    return series;
  }

  /**
   * Each (minute, pair) counted from {@code fromMinute} to {@code toMinute} (both included), its
   * counts as they stand, by minute; minutes no longer kept are left out.
   */
  public List<MinuteRow> rows(long fromMinute, long toMinute) {
    List<MinuteRow> rows = new ArrayList<>();
    for (int i = 0; i < ring.length(); i++) {
      Minute minute = ring.get(i);
      if (minute == null || minute.epochMinute() < fromMinute || minute.epochMinute() > toMinute) {
        continue;
      }
      minute
          .counts()
          .forEach(
              (series, counts) -> {
                long[] values = new long[COUNTS.length];
                for (int c = 0; c < values.length; c++) {
                  values[c] = counts.get(c);
                }
                rows.add(new MinuteRow(minute.epochMinute(), series, values));
              });
    }
    rows.sort(Comparator.comparingLong(MinuteRow::epochMinute));
    return rows;
  }

  /**
   * One pair's counts in one minute.
   *
   * @param epochMinute the minute
   * @param series the (queue, type) pair
   * @param counts one value per {@link Count}, in the order of its constants
   */
  public record MinuteRow(long epochMinute, Series series, long[] counts) {
    /** The value of {@code count}. */
    public long of(Count count) {
      return counts[count.ordinal()];
    }
  }

  private static EnumMap<Count, long[]> emptyCounts(int minutes) {
    EnumMap<Count, long[]> counts = new EnumMap<>(Count.class);
    for (Count count : COUNTS) {
      counts.put(count, new long[minutes]);
    }
    return counts;
  }

  /**
   * One pair's counts, minute by minute, the oldest first.
   *
   * @param series the (queue, type) pair
   * @param counts per count, one value a minute
   */
  public record SeriesCounts(Series series, EnumMap<Count, long[]> counts) {
    /** The values of {@code count}, one a minute, the oldest first. */
    public long[] of(Count count) {
      return counts.get(count);
    }

    /** The sum of {@code count} over the minutes. */
    public long total(Count count) {
      long sum = 0;
      for (long value : counts.get(count)) {
        sum += value;
      }
      return sum;
    }
  }
}
