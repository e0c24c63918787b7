package io.taskgate.web.admin;

import io.taskgate.engine.admin.dto.StatsView;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;

/**
 * The overview chart's data: {@code {"from": epochSeconds, "series": [{"queue", "type", "started":
 * [...], "parked": [...], "rejected": [...], "failed": [...]}]}}, one value a minute.
 */
final class StatsJson {
  /** The counts the chart draws. */
  static final String[] CHARTED = {"started", "parked", "rejected", "failed"};

  private StatsJson() {}

  static String of(StatsView view) {
    JsonArrayBuilder series = Json.createArrayBuilder();
    for (StatsView.Series s : view.series()) {
      JsonObjectBuilder one =
          Json.createObjectBuilder().add("queue", s.queue()).add("type", s.taskType());
      for (String count : CHARTED) {
        JsonArrayBuilder values = Json.createArrayBuilder();
        for (long value : values(s.counts(), count)) {
          values.add(value);
        }
        one.add(count, values);
      }
      series.add(one);
    }
    return Json.createObjectBuilder()
        .add("from", view.from().getEpochSecond())
        .add("minutes", view.minutes())
        .add("series", series)
        .build()
        .toString();
  }

  /** The values of one count by its name in the API. */
  static long[] values(StatsView.Counts counts, String count) {
    return switch (count) {
      case "started" -> counts.started();
      case "completed" -> counts.completed();
      case "failed" -> counts.failed();
      case "parked" -> counts.parked();
      case "rejected" -> counts.rejected();
      case "rejectedBeyondHorizon" -> counts.rejectedBeyondHorizon();
      case "rejectedDiscarded" -> counts.rejectedDiscarded();
      case "failedOpen" -> counts.failedOpen();
      default -> throw new IllegalArgumentException("no count " + count);
    };
  }

  static long sum(long[] values) {
    long sum = 0;
    for (long value : values) {
      sum += value;
    }
    return sum;
  }
}
