package io.taskgate.core.task;

import io.taskgate.api.CronExpression;
import io.taskgate.api.Recurrence;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * The times a {@link Recurrence} names: its first occurrence, the one after a run, whether the
 * series is used up, and its shortest gap. Build one per recurrence with {@link #of(Recurrence)} (a
 * cron expression is parsed once), or call the static forms.
 *
 * <p><b>The schedule, not the run, sets the rhythm, and missed occurrences are skipped.</b> {@link
 * #next} returns the first schedule time strictly after {@code max(previousScheduled, now)}: for an
 * interval, {@code previousScheduled + k · interval} with the smallest {@code k ≥ 1} that is after
 * both; for cron, the first cron time after both. Occurrences at or before {@code now} that never
 * ran (the server was down, the run overran) are not replayed: with a 1-minute interval and 10:00
 * scheduled, {@code now} 10:00:30 gives 10:01, {@code now} 10:07:30 gives 10:08, and {@code now}
 * exactly 10:01:00 gives 10:02 (a time equal to {@code now} counts as passed, the same strict
 * "after" as cron's). No time after {@code runUntil} is returned, and nothing once {@code maxRuns}
 * real executions happened.
 */
public final class Occurrences {
  /** At most this many occurrences are sampled by {@link #shortestGap(Instant)}. */
  public static final int GAP_SAMPLES = 50_000;

  private static final Duration ONE_MINUTE = Duration.ofMinutes(1);

  private final Recurrence recurrence;
  private final CronExpression cron;

  private Occurrences(Recurrence recurrence) {
    if (recurrence == null) {
      throw new IllegalArgumentException("recurrence must not be null");
    }
    this.recurrence = recurrence;
    this.cron = recurrence.cron().map(CronExpression::parse).orElse(null);
  }

  /** The occurrence math of {@code recurrence}. */
  public static Occurrences of(Recurrence recurrence) {
    return new Occurrences(recurrence);
  }

  /** {@code of(r).first(dispatchedAt)}. */
  public static Optional<Instant> first(Recurrence r, Instant dispatchedAt) {
    return of(r).first(dispatchedAt);
  }

  /** {@code of(r).next(previousScheduled, now, runsSoFar)}. */
  public static Optional<Instant> next(
      Recurrence r, Instant previousScheduled, Instant now, long runsSoFar) {
    return of(r).next(previousScheduled, now, runsSoFar);
  }

  /** {@code of(r).exhausted(runsSoFar)}. */
  public static boolean exhausted(Recurrence r, long runsSoFar) {
    return of(r).exhausted(runsSoFar);
  }

  /** {@code of(r).shortestGap(from)}. */
  public static Optional<Duration> shortestGap(Recurrence r, Instant from) {
    return of(r).shortestGap(from);
  }

  /** The recurrence this computes for. */
  public Recurrence recurrence() {
    return recurrence;
  }

  /**
   * The first occurrence of a series dispatched at {@code dispatchedAt}: for an interval, {@code
   * startAt} (even if already past: it is due at once) or else {@code dispatchedAt}; for cron, the
   * first cron time strictly after {@code dispatchedAt}. Empty if that is after {@code runUntil} or
   * the cron expression names no time.
   */
  public Optional<Instant> first(Instant dispatchedAt) {
    requireInstant("dispatchedAt", dispatchedAt);
    Optional<Instant> first =
        cron == null
            ? Optional.of(recurrence.startAt().orElse(dispatchedAt))
            : cronAfter(dispatchedAt);
    return first.filter(this::notAfterEnd);
  }

  /**
   * The occurrence after the one scheduled at {@code previousScheduled}, seen at {@code now}, when
   * {@code runsSoFar} real executions have happened: see the class documentation. Always strictly
   * after both {@code previousScheduled} and {@code now}.
   */
  public Optional<Instant> next(Instant previousScheduled, Instant now, long runsSoFar) {
    requireInstant("previousScheduled", previousScheduled);
    requireInstant("now", now);
    if (exhausted(runsSoFar)) {
      return Optional.empty();
    }
    Instant after = now.isAfter(previousScheduled) ? now : previousScheduled;
    Optional<Instant> next;
    if (cron != null) {
      next = cronAfter(after);
    } else {
      next = onGridAfter(previousScheduled, recurrence.interval().orElseThrow(), after);
    }
    return next.filter(this::notAfterEnd);
  }

  /** Whether {@code maxRuns} real executions have happened. */
  public boolean exhausted(long runsSoFar) {
    return recurrence.maxRuns().isPresent() && runsSoFar >= recurrence.maxRuns().getAsLong();
  }

  /**
   * The shortest time between two consecutive occurrences: the interval; for cron, the smallest gap
   * among the occurrences after {@code from}, sampled over {@link CronExpression#SEARCH_YEARS}
   * years or {@link #GAP_SAMPLES} occurrences, whichever ends first (daylight-saving changes in the
   * zone included). Empty if fewer than two occurrences fall in the sample. Ignores {@code
   * startAt}, {@code runUntil} and {@code maxRuns}: it describes the rhythm.
   */
  public Optional<Duration> shortestGap(Instant from) {
    requireInstant("from", from);
    if (cron == null) {
      return recurrence.interval();
    }
    ZonedDateTime t = from.atZone(recurrence.zone());
    ZonedDateTime end = t.plusYears(CronExpression.SEARCH_YEARS);
    Optional<ZonedDateTime> previous = cron.nextAfter(t);
    Duration shortest = null;
    for (int i = 1; i < GAP_SAMPLES && previous.isPresent(); i++) {
      Optional<ZonedDateTime> next = cron.nextAfter(previous.get());
      if (next.isEmpty() || next.get().isAfter(end)) {
        break;
      }
      Duration gap = Duration.between(previous.get(), next.get());
      if (shortest == null || gap.compareTo(shortest) < 0) {
        shortest = gap;
      }
      if (shortest.compareTo(ONE_MINUTE) <= 0) {
        break;
      }
      previous = next;
    }
    return Optional.ofNullable(shortest);
  }

  private Optional<Instant> cronAfter(Instant t) {
    return cron.nextAfter(t.atZone(recurrence.zone())).map(ZonedDateTime::toInstant);
  }

  private static Optional<Instant> onGridAfter(Instant origin, Duration interval, Instant after) {
    try {
      long k = Duration.between(origin, after).dividedBy(interval) + 1;
      return Optional.of(origin.plus(interval.multipliedBy(k)));
    } catch (ArithmeticException | DateTimeException e) {
      return Optional.empty();
    }
  }

  private boolean notAfterEnd(Instant t) {
    return recurrence.runUntil().map(end -> !t.isAfter(end)).orElse(true);
  }

  private static void requireInstant(String name, Instant value) {
    if (value == null) {
      throw new IllegalArgumentException("Occurrences: " + name + " must not be null");
    }
  }
}
