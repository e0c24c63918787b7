package io.taskgate.web.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.engine.admin.dto.StatsView;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The last hour as the pages chart it: the counts each page draws, per task series and limiter. */
class LastHourTest {
  static final long[] ZERO = {0, 0};

  static StatsView.Counts tasks(long[] started, long[] waited) {
    return new StatsView.Counts(
        started, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, waited, new long[] {0, 1});
  }

  final StatsView view =
      new StatsView(
          List.of("a", "b"),
          Instant.parse("2030-01-01T10:00:00Z"),
          2,
          1440,
          tasks(new long[] {3, 4}, new long[] {1, 2}),
          List.of(
              new StatsView.Series(
                  "default", "shop.Mail", tasks(new long[] {3, 4}, new long[] {1, 2}))),
          List.of(
              new StatsView.LimiterSeries(
                  "partner-api",
                  new StatsView.CallCounts(
                      new long[] {10, 20}, new long[] {0, 5}, new long[] {2, 0}, ZERO))));

  static JsonObject json(LastHour hour) {
    return Json.createReader(new StringReader(hour.json())).readObject();
  }

  @Test
  void theOverviewChartsTasksAloneAndNoLimiter() {
    JsonObject data = json(new LastHour(view, LastHour.TASKS));
    assertThat(data.getString("unit")).isEqualTo("tasks a minute");
    assertThat(data.getJsonArray("series")).hasSize(1);
    JsonObject mail = data.getJsonArray("series").getJsonObject(0);
    assertThat(mail.getString("type")).isEqualTo("shop.Mail");
    assertThat(mail.getJsonArray("started").toString()).isEqualTo("[3,4]");
    assertThat(mail.keySet())
        .containsExactlyInAnyOrder("queue", "type", "started", "parked", "rejected", "failed");
    assertThat(data.getInt("from"))
        .isEqualTo(Instant.parse("2030-01-01T10:00:00Z").getEpochSecond());
  }

  @Test
  void theThrottlersPageChartsTheThrottlersTasksAndTheLimitersCallsEachInItsOwnSeries() {
    LastHour hour = new LastHour(view, LastHour.THROTTLERS);
    JsonObject data = json(hour);
    assertThat(data.getString("unit")).isEqualTo("tasks or calls a minute");
    assertThat(data.getJsonArray("series")).hasSize(2);
    JsonObject mail = data.getJsonArray("series").getJsonObject(0);
    assertThat(mail.keySet())
        .containsExactlyInAnyOrder("queue", "type", "throttleWaited", "throttleDropped");
    JsonObject partner = data.getJsonArray("series").getJsonObject(1);
    assertThat(partner.keySet())
        .containsExactlyInAnyOrder("limiter", "callsWaited", "callsRefused");
    assertThat(partner.getString("limiter")).isEqualTo("partner-api");
    assertThat(partner.getJsonArray("callsWaited").toString()).isEqualTo("[0,5]");

    assertThat(hour.total("throttleWaited")).isEqualTo(3);
    assertThat(hour.total("callsGranted")).isEqualTo(30);
    assertThat(hour.total("callsRefused")).isEqualTo(2);
    assertThat(hour.instances()).isEqualTo("2 instances (a, b)");
    assertThatThrownBy(() -> hour.total("callsLost")).hasMessageContaining("callsLost");
  }
}
