package io.taskgate.docs;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard and the Prometheus alerting rules of {@code server-config}, checked with
 * Prometheus' own {@code promtool} (Debian's {@code prometheus} package, which {@code ./test}
 * installs; or {@code -Dtaskgate.promtool=<path>}): the rules load, pass their unit tests, and each
 * alert has a test in which it fires; every dashboard query is valid PromQL, and every panel says
 * what it shows. That each series they name is exported is checked against a running server by
 * {@code ApiIT}.
 */
class MonitoringConfigTest {
  static final Path PROMETHEUS = DocsTest.ROOT.resolve("server-config/prometheus");
  static final Path DASHBOARD = DocsTest.ROOT.resolve("server-config/grafana/taskgate.json");

  @Test
  void theRulesLoad() throws Exception {
    Result check = promtool(PROMETHEUS, "check", "rules", "taskgate-rules.yml");
    assertThat(check.exit()).as(check.output()).isZero();
    assertThat(check.output()).contains("SUCCESS: " + alerts().size() + " rules found");
  }

  @Test
  void theRulesPassTheirUnitTests() throws Exception {
    Result test = promtool(PROMETHEUS, "test", "rules", "taskgate-rules.test.yml");
    assertThat(test.exit()).as(test.output()).isZero();
    assertThat(test.output()).contains("SUCCESS");
  }

  @Test
  void everyAlertHasATestInWhichItFires() throws IOException {
    String tests = Files.readString(PROMETHEUS.resolve("taskgate-rules.test.yml"));
    Set<String> firing = new LinkedHashSet<>();
    for (String block : tests.split("- eval_time:")) {
      Matcher name = Pattern.compile("alertname: (\\w+)").matcher(block);
      if (name.find() && block.contains("exp_labels:")) {
        firing.add(name.group(1));
      }
    }
    assertThat(alerts()).hasSize(6);
    assertThat(firing).containsAll(alerts());
  }

  @Test
  void everyDashboardQueryIsPromQlAndEveryPanelSaysWhatItShows(@TempDir Path dir) throws Exception {
    JsonObject dashboard;
    try (JsonReader reader =
        Json.createReader(new StringReader(Files.readString(DASHBOARD, StandardCharsets.UTF_8)))) {
      dashboard = reader.readObject();
    }
    assertThat(dashboard.getString("uid")).isEqualTo("taskgate");
    List<String> exprs = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    List<int[]> cells = new ArrayList<>();
    for (JsonValue value : dashboard.getJsonArray("panels")) {
      JsonObject panel = value.asJsonObject();
      JsonObject grid = panel.getJsonObject("gridPos");
      int x = grid.getInt("x");
      int y = grid.getInt("y");
      int w = grid.getInt("w");
      int h = grid.getInt("h");
      if (x < 0 || x + w > 24) {
        problems.add(panel.getString("title") + ": wider than the 24 columns");
      }
      for (int[] other : cells) {
        if (x < other[0] + other[2]
            && other[0] < x + w
            && y < other[1] + other[3]
            && other[1] < y + h) {
          problems.add(panel.getString("title") + ": overlaps another panel");
        }
      }
      cells.add(new int[] {x, y, w, h});
      if (panel.getString("type").equals("row")) {
        continue;
      }
      if (panel.getString("description", "").isBlank()) {
        problems.add(panel.getString("title") + ": no description");
      }
      if (panel.getJsonArray("targets").isEmpty()) {
        problems.add(panel.getString("title") + ": no query");
      }
      for (JsonValue target : panel.getJsonArray("targets")) {
        exprs.add(target.asJsonObject().getString("expr"));
      }
    }
    assertThat(problems).isEmpty();
    assertThat(exprs).hasSizeGreaterThan(20);

    // each query as a recording rule: promtool parses it as Prometheus would
    StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
    for (int i = 0; i < exprs.size(); i++) {
      String expr =
          exprs.get(i).replace("$__rate_interval", "5m").replace("\"$instance\"", "\".*\"");
      rules
          .append("      - record: taskgate:dashboard_query_")
          .append(i)
          .append("\n        expr: |\n          ")
          .append(expr.replace("\n", "\n          "))
          .append('\n');
    }
    Files.writeString(dir.resolve("dashboard-rules.yml"), rules);
    Result check = promtool(dir, "check", "rules", "dashboard-rules.yml");
    assertThat(check.exit()).as(check.output()).isZero();
    assertThat(check.output()).contains("SUCCESS: " + exprs.size() + " rules found");
  }

  /** The alerts of the rules file, by name. */
  static Set<String> alerts() throws IOException {
    Matcher alert =
        Pattern.compile("(?m)^\\s*- alert: (\\w+)")
            .matcher(Files.readString(PROMETHEUS.resolve("taskgate-rules.yml")));
    Set<String> names = new LinkedHashSet<>();
    while (alert.find()) {
      names.add(alert.group(1));
    }
    return names;
  }

  record Result(int exit, String output) {}

  static Result promtool(Path dir, String... args) throws Exception {
    String promtool = System.getProperty("taskgate.promtool", "promtool");
    List<String> command = new ArrayList<>(List.of(promtool));
    command.addAll(List.of(args));
    Process process;
    try {
      process =
          new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new AssertionError(
          promtool
              + " cannot be run ("
              + e.getMessage()
              + "): install Debian's prometheus package (./test does), or pass"
              + " -Dtaskgate.promtool=<path to promtool>",
          e);
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    return new Result(process.exitValue(), output);
  }
}
