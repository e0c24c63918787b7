package io.taskgate.api;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A five-field cron expression, {@code minute hour day-of-month month day-of-week}, and the next
 * time it names.
 *
 * <p>Each field is {@code *} or a comma-separated list of elements; an element is a value, a range
 * {@code a-b}, or either of them or {@code *} followed by a step {@code /n} ({@code a/n} means
 * {@code a} to the field's maximum every {@code n}). Months may be named {@code JAN}–{@code DEC}
 * and days {@code SUN}–{@code SAT} (any case); day-of-week 0 and 7 are both Sunday. If both
 * day-of-month and day-of-week are restricted (written as anything but a lone {@code *}), a day
 * matches when either matches (POSIX; unlike Vixie cron, a stepped star such as <code>*&#47;2
 * </code> counts as restricted). Otherwise a day must match the restricted one of the two.
 *
 * <p>Time zones: the expression names local wall-clock times in the zone of the time passed to
 * {@link #nextAfter}. A local time that does not exist because the clocks jump forward (spring gap)
 * fires once, at the instant the gap ends (for Europe/Paris: 02:30 fires at 03:00 CEST; several
 * times inside one gap fire together, once). A local time that occurs twice because the clocks go
 * back (autumn overlap) fires once, at its first occurrence (the earlier offset); its repetition is
 * not a new occurrence. So every local time fires at most once and the occurrences are strictly
 * increasing instants.
 */
public final class CronExpression {
  /** How far {@link #nextAfter} looks: long enough for every February 29, across 2100 too. */
  public static final int SEARCH_YEARS = 8;

  private static final List<String> MONTHS =
      List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
  private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

  private final String text;
  private final long minutes;
  private final long hours;
  private final long daysOfMonth;
  private final long months;
  private final long daysOfWeek;
  private final boolean dayOfMonthRestricted;
  private final boolean dayOfWeekRestricted;

  private CronExpression(String text, String[] fields) {
    this.text = text;
    this.minutes = new Field(text, "minute", 0, 59, null).parse(fields[0]);
    this.hours = new Field(text, "hour", 0, 23, null).parse(fields[1]);
    this.daysOfMonth = new Field(text, "day-of-month", 1, 31, null).parse(fields[2]);
    this.months = new Field(text, "month", 1, 12, MONTHS).parse(fields[3]);
    long dow = new Field(text, "day-of-week", 0, 7, DAYS).parse(fields[4]);
    this.daysOfWeek = (dow | (dow >>> 7)) & 0x7F;
    this.dayOfMonthRestricted = !fields[2].equals("*");
    this.dayOfWeekRestricted = !fields[4].equals("*");
  }

  /**
   * Reads {@code expression}.
   *
   * @throws IllegalArgumentException naming the expression, the field and the bad token, e.g.
   *     {@code cron '61 * * * *': minute field '61' is out of range 0-59}
   */
  public static CronExpression parse(String expression) {
    if (expression == null) {
      throw new IllegalArgumentException("cron expression must not be null");
    }
    String[] fields = expression.strip().split("\\s+");
    if (fields.length != 5 || fields[0].isEmpty()) {
      throw new IllegalArgumentException(
          "cron '"
              + expression
              + "' must have 5 fields (minute hour day-of-month month day-of-week), has "
              + (fields[0].isEmpty() ? 0 : fields.length));
    }
    return new CronExpression(expression, fields);
  }

  /** Whether the local date-time (its minute; seconds ignored) is one this expression names. */
  public boolean matches(LocalDateTime t) {
    return has(months, t.getMonthValue())
        && dayMatches(t.toLocalDate())
        && has(hours, t.getHour())
        && has(minutes, t.getMinute());
  }

  /**
   * The first time this expression names strictly after {@code t}, in {@code t}'s zone, with
   * seconds and nanos 0; empty if none within {@link #SEARCH_YEARS} years (e.g. {@code 0 0 30 2
   * *}). See the class documentation for daylight-saving gaps and overlaps.
   */
  public Optional<ZonedDateTime> nextAfter(ZonedDateTime t) {
    ZoneId zone = t.getZone();
    ZoneRules rules = zone.getRules();
    Instant after = t.toInstant();
    LocalDateTime local = t.toLocalDateTime().truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
    int lastYear = local.getYear() + SEARCH_YEARS;
    while (local.getYear() <= lastYear) {
      if (!has(months, local.getMonthValue())) {
        local = local.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay();
      } else if (!dayMatches(local.toLocalDate())) {
        local = local.toLocalDate().plusDays(1).atStartOfDay();
      } else if (!has(hours, local.getHour())) {
        local = local.truncatedTo(ChronoUnit.HOURS).plusHours(1);
      } else {
        long later = minutes & (-1L << local.getMinute());
        if (later == 0) {
          local = local.truncatedTo(ChronoUnit.HOURS).plusHours(1);
          continue;
        }
        local = local.withMinute(Long.numberOfTrailingZeros(later));
        ZonedDateTime fires = resolve(local, zone, rules);
        if (fires.toInstant().isAfter(after)) {
          return Optional.of(fires);
        }
        local = local.plusMinutes(1);
      }
    }
    return Optional.empty();
  }

  /**
   * When the local time {@code local} fires in {@code zone}: at its only offset; at the end of a
   * spring gap it falls in; at the earlier offset of an autumn overlap.
   */
  static ZonedDateTime resolve(LocalDateTime local, ZoneId zone, ZoneRules rules) {
    if (rules.getValidOffsets(local).isEmpty()) {
      ZoneOffsetTransition gap = rules.getTransition(local);
      return ZonedDateTime.ofInstant(gap.getInstant(), zone);
    }
    return ZonedDateTime.ofLocal(local, zone, null);
  }

  private boolean dayMatches(LocalDate date) {
    boolean dom = has(daysOfMonth, date.getDayOfMonth());
    boolean dow = has(daysOfWeek, date.getDayOfWeek().getValue() % 7);
    if (dayOfMonthRestricted && dayOfWeekRestricted) {
      return dom || dow;
    }
    return dom && dow;
  }

  private static boolean has(long set, int value) {
    return (set & (1L << value)) != 0;
  }

  /** The expression as written. */
  @Override
  public String toString() {
    return text;
  }

  /** Equal when written alike. */
  @Override
  public boolean equals(Object o) {
    return o instanceof CronExpression other && text.equals(other.text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** One field's parser: its name, bounds and optional names (index + min = value). */
  private record Field(String expression, String name, int min, int max, List<String> names) {
    long parse(String field) {
      long set = 0;
      for (String element : field.split(",", -1)) {
        set |= element(element);
      }
      return set;
    }

    private long element(String element) {
      if (element.isEmpty()) {
        throw error(element, "is empty");
      }
      int slash = element.indexOf('/');
      String range = slash < 0 ? element : element.substring(0, slash);
      int step = slash < 0 ? 1 : step(element.substring(slash + 1));
      int from;
      int to;
      if (range.equals("*")) {
        from = min;
        to = max;
      } else {
        int dash = range.indexOf('-', 1);
        from = value(dash < 0 ? range : range.substring(0, dash));
        to = dash < 0 ? (slash < 0 ? from : max) : value(range.substring(dash + 1));
        if (to < from) {
          throw error(element, "is a backward range: " + from + " is after " + to);
        }
      }
      long set = 0;
      for (int v = from; v <= to; v += step) {
        set |= 1L << v;
      }
      return set;
    }

    private int step(String token) {
      int step = number(token);
      if (step < 1) {
        throw error(token, "is not a valid step: it must be at least 1");
      }
      return step;
    }

    private int value(String token) {
      if (names != null) {
        int index = names.indexOf(token.toUpperCase(Locale.ROOT));
        if (index >= 0) {
          return index + min;
        }
      }
      int value = number(token);
      if (value < min || value > max) {
        throw error(token, "is out of range " + min + "-" + max);
      }
      return value;
    }

    private int number(String token) {
      if (token.isEmpty()
          || token.length() > 9
          || !token.chars().allMatch(c -> c >= '0' && c <= '9')) {
        throw error(
            token,
            names == null
                ? "is not a number"
                : "is not a number or one of " + String.join(",", names));
      }
      return Integer.parseInt(token);
    }

    private IllegalArgumentException error(String token, String problem) {
      return new IllegalArgumentException(
          "cron '" + expression + "': " + name + " field '" + token + "' " + problem);
    }
  }
}
