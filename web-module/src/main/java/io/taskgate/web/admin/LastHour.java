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

  /**
   * The Throttlers page's counts: tasks the job throttlers made wait or dropped, calls the
   * {@code @RateLimited} limiters made wait or refused.
   */
  static final List<String> THROTTLERS =
      List.of("throttleWaited", "throttleDropped", "callsWaited", "callsRefused");

  /** The counts of a limiter's calls, as the API names them. */
  static final List<String> CALLS = List.of("callsGranted", "callsWaited", "callsRefused");

  /**
   * The chart's data: {@code {"from": epochSeconds, "minutes", "counts": [names], "unit", "series":
   * [{"queue", "type", name: [...] per count} or {"limiter", name: [...] per count}]}}, one value a
   * minute, a series holding the counts that apply to it (tasks or calls); an attribute of the
   * page, which escapes it.
   */
  public String json() {
    JsonArrayBuilder series = Json.createArrayBuilder();
    if (charted.stream().anyMatch(count -> !CALLS.contains(count))) {
      for (StatsView.Series s : view.series()) {
        JsonObjectBuilder one =
            Json.createObjectBuilder().add("queue", s.queue()).add("type", s.taskType());
        charted.stream()
            .filter(count -> !CALLS.contains(count))
            .forEach(count -> one.add(count, array(values(s.counts(), count))));
        series.add(one);
      }
    }
    if (charted.stream().anyMatch(CALLS::contains)) {
      for (StatsView.LimiterSeries s : view.limiters()) {
        JsonObjectBuilder one = Json.createObjectBuilder().add("limiter", s.limiter());
        charted.stream()
            .filter(CALLS::contains)
            .forEach(count -> one.add(count, array(calls(s.counts(), count))));
        series.add(one);
      }
    }
    return Json.createObjectBuilder()
        .add("from", view.from().getEpochSecond())
        .add("minutes", view.minutes())
        .add("counts", Json.createArrayBuilder(charted))
        .add(
            "unit",
            charted.stream().anyMatch(CALLS::contains)
                ? "tasks or calls a minute"
                : "tasks a minute")
        .add("series", series)
        .build()
        .toString();
  }

  private static JsonArrayBuilder array(long[] values) {
    JsonArrayBuilder array = Json.createArrayBuilder();
    for (long value : values) {
      array.add(value);
    }
    return array;
  }

  /**
   * The sum over the window of a count: of the tasks ({@code rejected}, ...), or of every limiter's
   * calls ({@code callsRefused}, ...).
   */
  public long total(String count) {
    long sum = 0;
    if (CALLS.contains(count)) {
      for (StatsView.LimiterSeries s : view.limiters()) {
        for (long value : calls(s.counts(), count)) {
          sum += value;
        }
      }
      return sum;
    }
    for (long value : values(view.total(), count)) {
      sum += value;
    }
    return sum;
  }

  /** The values of one count of a limiter's calls by its name in the API. */
  static long[] calls(StatsView.CallCounts counts, String count) {
    return switch (count) {
      case "callsGranted" -> counts.granted();
      case "callsWaited" -> counts.waited();
      case "callsRefused" -> counts.refused();
      default -> throw new IllegalArgumentException("no count of calls " + count);
    };
  }

  /** Whose counts these are: "this instance" or "2 instances (a, b)". */
  public String instances() {
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
