package io.taskgate.core.time;

import java.time.Duration;
import java.util.Locale;

/**
 * Durations as people say them, one vocabulary for the admin pages, the audit and the logs: {@code
 * 200 ms}, {@code 1.5 s}, {@code 10 s}, {@code 1 min}, {@code 1 min 30 s}, {@code 2 h}, {@code 2 h
 * 5 min}, {@code 7 d}, {@code 1 d 12 h}.
 */
public final class HumanDuration {
  private HumanDuration() {}

  /** {@code duration} as people say it; empty for null. */
  public static String of(Duration duration) {
    if (duration == null) {
      return "";
    }
    long millis = duration.toMillis();
    if (millis >= 86_400_000) {
      long hours = millis % 86_400_000 / 3_600_000;
      return millis / 86_400_000 + " d" + (hours == 0 ? "" : " " + hours + " h");
    }
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + " h";
    }
    if (millis < 60_000) {
      return millis % 1000 == 0
          ? millis / 1000 + " s"
          : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    if (millis < 3_600_000) {
      if (millis % 60_000 == 0) {
        return millis / 60_000 + " min";
      }
      return String.format(Locale.ROOT, "%d min %d s", millis / 60_000, millis % 60_000 / 1000);
    }
    return String.format(
        Locale.ROOT, "%d h %d min", millis / 3_600_000, millis % 3_600_000 / 60_000);
  }
}
