package io.taskgate.web.admin;

import io.taskgate.engine.admin.dto.StatsView;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.util.List;

/**
 * The last hour as a page shows it ({@code <tg:lastHourChart>} and {@code chart.js}): the counts
 * the page charts, their sums, and whose counts they are.
 *
 * @param view the history read for the page
 * @param charted the names of the counts the chart draws, as the API names them ({@code started})
 */
public record LastHour(StatsView view, List<String> charted) {

  /** The overview's counts. */
  static final List<String> TASKS = List.of("started", "parked", "rejected", "failed");

  /** The Throttlers page's counts. */
  static final List<String> THROTTLERS = List.of("throttleWaited", "throttleDropped");

  /**
   * The chart's data: {@code {"from": epochSeconds, "minutes", "counts": [names], "series":
   * [{"queue", "type", name: [...] per count}]}}, one value a minute; an attribute of the page,
   * which escapes it.
   */
  public String getJson() {
    JsonArrayBuilder series = Json.createArrayBuilder();
    for (StatsView.Series s : view.series()) {
      JsonObjectBuilder one =
          Json.createObjectBuilder().add("queue", s.queue()).add("type", s.taskType());
      for (String count : charted) {
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
        .add("counts", Json.createArrayBuilder(charted))
        .add("series", series)
        .build()
        .toString();
  }

  /** The sum over the window of a count of {@link StatsView.Counts} ({@code rejected}, ...). */
  public long total(String count) {
    long sum = 0;
    for (long value : values(view.total(), count)) {
      sum += value;
    }
    return sum;
  }

  /** Whose counts these are: "this instance" or "2 instances (a, b)". */
  public String getInstances() {
    List<String> ids = view.instances();
    return ids.size() == 1
        ? "this instance"
        : ids.size() + " instances (" + String.join(", ", ids) + ")";
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
      case "throttleWaited" -> counts.throttleWaited();
      case "throttleDropped" -> counts.throttleDropped();
      default -> throw new IllegalArgumentException("no count " + count);
    };
  }
}
