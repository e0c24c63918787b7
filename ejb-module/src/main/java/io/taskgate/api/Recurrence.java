package io.taskgate.api;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * When a recurring task runs: every fixed interval, or at the times a cron expression names; from
 * an optional start, until an optional end, for at most an optional number of real executions.
 * Build one with {@link #every(Duration)} or {@link #cron(String, ZoneId)} and the {@code with…}
 * methods. An interval is at most {@link #MAX_INTERVAL}, and the text form ({@link #encode()}) at
 * most {@link #MAX_ENCODED_LENGTH} characters, what the store holds.
 *
 * @param interval the fixed interval, or empty for a cron recurrence
 * @param cron the cron expression (five fields: minute hour day-of-month month day-of-week, see
 *     {@link CronExpression}), or empty for an interval
 * @param zone the time zone the cron expression is read in (UTC for intervals)
 * @param startAt the first occurrence of an interval recurrence (empty: the dispatch time)
 * @param runUntil no occurrence after this instant
 * @param maxRuns at most this many real executions (skipped occurrences do not count)
 */
public record Recurrence(
    Optional<Duration> interval,
    Optional<String> cron,
    ZoneId zone,
    Optional<Instant> startAt,
    Optional<Instant> runUntil,
    OptionalLong maxRuns) {

  /**
   * The longest interval: 36,500 days (about 100 years), so that the next occurrence is never
   * further from now than a dispatch may schedule a task.
   */
  public static final Duration MAX_INTERVAL = Duration.ofDays(36_500);

  /** The longest text form ({@link #encode()}), in characters: what the store's column holds. */
  public static final int MAX_ENCODED_LENGTH = 1000;

  /** Checks that exactly one of interval and cron is set, and every value. */
  public Recurrence {
    if (interval.isPresent() == cron.isPresent()) {
      throw invalid("a recurrence needs exactly one of an interval and a cron expression");
    }
    interval.ifPresent(
        i -> {
          if (i.isNegative() || i.isZero()) {
            throw invalid("interval must be positive, was " + i);
          }
          if (i.compareTo(MAX_INTERVAL) > 0) {
            throw invalid("interval must be at most " + MAX_INTERVAL + " (100 years), was " + i);
          }
        });
    cron.ifPresent(
        c -> {
          if (c.isBlank()) {
            throw invalid("cron expression must not be blank");
          }
          try {
            CronExpression.parse(c);
          } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
          }
        });
    if (zone == null) {
      throw invalid("zone must not be null");
    }
    maxRuns.ifPresent(
        n -> {
          if (n < 1) {
            throw invalid("maxRuns must be at least 1, was " + n);
          }
        });
    int length = encode(interval, cron, zone, startAt, runUntil, maxRuns).length();
    if (length > MAX_ENCODED_LENGTH) {
      throw invalid(
          "its text form must be at most "
              + MAX_ENCODED_LENGTH
              + " characters, was "
              + length
              + " (shorten the cron expression)");
    }
  }

  /** Every {@code interval}, from the dispatch time on. */
  public static Recurrence every(Duration interval) {
    return unbounded(Optional.of(interval), Optional.empty(), ZoneId.of("UTC"));
  }

  /** At the times {@code expression} names, read in {@code zone}. */
  public static Recurrence cron(String expression, ZoneId zone) {
    return unbounded(Optional.empty(), Optional.of(expression), zone);
  }

  /** A recurrence with no start, no end and no limit on its runs. */
  private static Recurrence unbounded(
      Optional<Duration> interval, Optional<String> cron, ZoneId zone) {
    return new Recurrence(
        interval, cron, zone, Optional.empty(), Optional.empty(), OptionalLong.empty());
  }

  /** This recurrence with its first occurrence at {@code startAt} (intervals only). */
  public Recurrence withStartAt(Instant startAt) {
    if (cron.isPresent()) {
      throw invalid(
          "a cron recurrence takes its times from the expression: startAt is not allowed");
    }
    return new Recurrence(interval, cron, zone, Optional.of(startAt), runUntil, maxRuns);
  }

  /** This recurrence ending at {@code runUntil}. */
  public Recurrence withRunUntil(Instant runUntil) {
    return new Recurrence(interval, cron, zone, startAt, Optional.of(runUntil), maxRuns);
  }

  /** This recurrence ending after {@code maxRuns} real executions. */
  public Recurrence withMaxRuns(long maxRuns) {
    return new Recurrence(interval, cron, zone, startAt, runUntil, OptionalLong.of(maxRuns));
  }

  /**
   * A one-line text form for storage, {@code key=value} pairs joined by {@code ;}: {@code
   * every=PT10S;start=…;until=…;maxRuns=5} or {@code cron=0 9 * * MON;zone=Europe/Paris;…}.
   */
  public String encode() {
    return encode(interval, cron, zone, startAt, runUntil, maxRuns);
  }

  private static String encode(
      Optional<Duration> interval,
      Optional<String> cron,
      ZoneId zone,
      Optional<Instant> startAt,
      Optional<Instant> runUntil,
      OptionalLong maxRuns) {
    StringBuilder text = new StringBuilder();
    interval.ifPresent(i -> text.append("every=").append(i));
    cron.ifPresent(c -> text.append("cron=").append(c).append(";zone=").append(zone.getId()));
    startAt.ifPresent(s -> text.append(";start=").append(s));
    runUntil.ifPresent(u -> text.append(";until=").append(u));
    maxRuns.ifPresent(n -> text.append(";maxRuns=").append(n));
    return text.toString();
  }

  /** The recurrence {@link #encode()} wrote. */
  public static Recurrence decode(String text) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : text.split(";")) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw unreadable(text, "'" + part + "' is not key=value");
      }
      fields.put(part.substring(0, eq), part.substring(eq + 1));
    }
    try {
      Recurrence r =
          fields.containsKey("every")
              ? every(Duration.parse(fields.get("every")))
              : cron(required(fields, "cron", text), ZoneId.of(fields.getOrDefault("zone", "UTC")));
      if (fields.containsKey("start")) {
        r = r.withStartAt(Instant.parse(fields.get("start")));
      }
      if (fields.containsKey("until")) {
        r = r.withRunUntil(Instant.parse(fields.get("until")));
      }
      if (fields.containsKey("maxRuns")) {
        r = r.withMaxRuns(Long.parseLong(fields.get("maxRuns")));
      }
      return r;
    } catch (NumberFormatException | DateTimeException e) {
      throw unreadable(text, e.getMessage());
    }
  }

  private static String required(Map<String, String> fields, String key, String text) {
    String value = fields.get(key);
    if (value == null) {
      throw unreadable(text, "neither every= nor cron=");
    }
    return value;
  }

  private static IllegalArgumentException unreadable(String text, String why) {
    return invalid("cannot read recurrence '" + text + "': " + why);
  }

  private static IllegalArgumentException invalid(String message) {
    return new IllegalArgumentException("Invalid recurrence: " + message);
  }
}
