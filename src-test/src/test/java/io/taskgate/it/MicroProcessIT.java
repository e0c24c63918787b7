package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.it.backlog.Backlog;
import io.taskgate.it.badconcurrency.BadConcurrency;
import io.taskgate.it.badlimit.BadLimit;
import io.taskgate.it.broken.BadPolicy;
import io.taskgate.it.duplicate.TwoHandlers;
import io.taskgate.it.failopen.FailOpen;
import io.taskgate.it.replaced.StrictLimiter;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What needs a Payara Micro of its own, started by this class rather than by Arquillian: handlers
 * that cannot be used fail their deployments, with messages naming the handler and the problem (an
 * invalid rate-limit policy, two handlers for one task type); and a tiny tracked-key cap ({@value
 * #MAX_TRACKED_KEYS} keys, a setting of the whole server) lets new keys through unthrottled, with
 * the monitoring event. One Micro runs the three WARs; its log is read.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MicroProcessIT {
  private static final int PORT = 28950;
  private static final int MAX_TRACKED_KEYS = 3;
  private static final int RESTART_PORT = 28951;
  private static final int BACKLOG_PORT = 28952;

  /**
   * A Micro of its own: two task-running applications on one default database take each other's
   * tasks.
   */
  private static final int REPLACED_PORT = 28953;

  private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);
  private static final Duration TASK_TIMEOUT = Duration.ofSeconds(20);

  private final Path dir = Path.of("target", "micro-process-it");
  private final Path log = dir.resolve("micro.log");
  private Process micro;
  private String bootLog;

  @BeforeAll
  void boot() throws Exception {
    Files.createDirectories(dir);
    File broken = war("broken", BadPolicy.class.getPackage());
    File duplicate = war("duplicate", TwoHandlers.class.getPackage());
    File failOpen = war("failopen", FailOpen.class.getPackage());
    File badLimit = war("badlimit", BadLimit.class.getPackage());
    File badConcurrency = war("badconcurrency", BadConcurrency.class.getPackage());
    micro =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dtaskgate.rate-limit.max-tracked-keys=" + MAX_TRACKED_KEYS,
                    "-Dtaskgate.examples.enabled=false",
                    "-jar",
                    ItConfig.required("payara.microJar"),
                    "--nohazelcast",
                    "--port",
                    String.valueOf(PORT),
                    "--deploy",
                    broken.getAbsolutePath(),
                    "--deploy",
                    duplicate.getAbsolutePath(),
                    "--deploy",
                    failOpen.getAbsolutePath(),
                    "--deploy",
                    badLimit.getAbsolutePath(),
                    "--deploy",
                    badConcurrency.getAbsolutePath()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    bootLog = awaitBoot(micro, log);
  }

  @AfterAll
  void stop() throws InterruptedException {
    if (micro != null) {
      micro.destroy();
      if (!micro.waitFor(30, TimeUnit.SECONDS)) {
        micro.destroyForcibly();
      }
    }
  }

  /**
   * A key with 10,000 parked tasks: its pacing timeline loads in Chromium within a second (the best
   * of three loads, the server's reading of the parked slots included), binned to at most one shape
   * a bin, with every label inside the drawing and the count of the parked tasks in its
   * description.
   */
  @Test
  void aTimelineOfTenThousandParkedTasksLoadsWithinASecond() throws Exception {
    // a server of its own: its engine and database to itself
    File war = dir.resolve("backlog.war").toFile();
    ShrinkWrap.create(ZipImporter.class, "backlog.war")
        .importFrom(new File(ItConfig.required("taskgate.war")))
        .as(WebArchive.class)
        .addPackage(Backlog.class.getPackage())
        .addAsResource(
            new StringAsset(Backlog.Settings.class.getName()),
            "META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource")
        .as(ZipExporter.class)
        .exportTo(war, true);
    Path root = dir.resolve("backlog-root");
    MicroRuns.deleteTree(root);
    Process server = start(root, war, dir.resolve("backlog.log"), BACKLOG_PORT);
    try {
      tenThousandParked("http://localhost:" + BACKLOG_PORT + "/backlog/");
    } finally {
      stop(server);
    }
  }

  private void tenThousandParked(String base) throws Exception {
    HttpResponse<String> dispatched =
        Http.send("POST", URI.create(base + "api/backlog?n=10500"), "", "admin", "taskgate");
    assertThat(dispatched.statusCode()).as(dispatched.body()).isEqualTo(200);
    // every queued task parked: one every 0.3 s has run meanwhile, so 10,500 leave 10,000 or more
    jakarta.json.JsonObject settled =
        Await.until(
            () ->
                Http.json(
                    Http.send("GET", URI.create(base + "api/overview"), null, "admin", "taskgate")),
            o -> o.getJsonObject("tasks").getInt("QUEUED") == o.getInt("parkedTasks"),
            Duration.ofMinutes(3),
            Duration.ofSeconds(1),
            o ->
                o.getJsonObject("tasks").getInt("QUEUED")
                    + " queued, not all of them parked yet: "
                    + o);
    int parked = settled.getInt("parkedTasks");
    assertThat(parked).isGreaterThanOrEqualTo(10_000);

    Browser browser = Browser.start();
    try {
      browser.open(base + "login.xhtml");
      browser.find(org.openqa.selenium.By.id("login:username")).sendKeys("admin");
      browser.find(org.openqa.selenium.By.id("login:password")).sendKeys("taskgate");
      browser.find(org.openqa.selenium.By.id("login:submit")).click();
      browser.await(
          "the overview",
          org.openqa.selenium.support.ui.ExpectedConditions.urlContains("/admin/overview.xhtml"));
      String timeline =
          base
              + "admin/rate-limits.xhtml?selType="
              + java.net.URLEncoder.encode(Backlog.Item.class.getName(), StandardCharsets.UTF_8)
              + "&selKey="
              + Backlog.KEY;
      List<Long> loads = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        browser.open(timeline);
        loads.add(
            ((Number)
                    browser
                        .driver()
                        .executeScript(
                            "var n = performance.getEntriesByType('navigation')[0];"
                                + " return Math.round(n.loadEventEnd - n.startTime);"))
                .longValue());
      }
      System.out.printf(
          "MicroProcessIT: the timeline of %d parked tasks loaded in %s ms%n", parked, loads);
      assertThat(loads.stream().mapToLong(Long::longValue).min().orElseThrow())
          .as("the best of three loads, ms: " + loads)
          .isLessThanOrEqualTo(1000);
      org.openqa.selenium.WebElement svg = browser.find(org.openqa.selenium.By.id("timeline"));
      assertThat(svg.getAttribute("data-window")).isEqualTo("1h");
      int shapes =
          browser
              .driver()
              .findElements(
                  org.openqa.selenium.By.cssSelector(
                      "#timeline .mark-parked, #timeline .mark-reserved, #timeline .mark-started"))
              .size();
      assertThat(shapes).as("shapes drawn for 10000 parked").isLessThanOrEqualTo(3 * 120);
      String description =
          browser.find(org.openqa.selenium.By.id("timeline-desc")).getAttribute("textContent");
      assertThat(Integer.parseInt(description.substring(0, description.indexOf(' '))))
          .as(description)
          .isGreaterThanOrEqualTo(10_000);
      assertThat(browser.labelsOutside("timeline")).isEmpty();
      // 10,500 tasks 0.3 s apart take 52.5 minutes of slots: the last ones lie beyond the hour
      assertThat(browser.find(org.openqa.selenium.By.id("parked-later")).getText())
          .containsPattern("\\d+ more parked beyond this window; the last in ");
      browser.screenshot("40-timeline-10000-parked");
    } finally {
      browser.close();
    }
  }

  @Test
  void unusableHandlersAndLimitsFailTheDeploymentNamingThemAndTheProblem() throws Exception {
    assertThat(bootLog)
        .contains(
            "Taskgate handler "
                + BadPolicy.ReportHandler.class.getName()
                + ": @RateLimit: Invalid rate-limit policy: permits must be at least 1, was 0");
    String twoHandlers =
        bootLog
            .lines()
            .filter(line -> line.contains("two handlers for task type "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no two-handlers error in " + log));
    assertThat(twoHandlers)
        .contains(TwoHandlers.Invoice.class.getName())
        .contains(TwoHandlers.FirstHandler.class.getName())
        .contains(TwoHandlers.SecondHandler.class.getName());
    assertThat(bootLog)
        .contains(
            "Taskgate rate limit: @RateLimited method "
                + BadLimit.class.getName()
                + "#quote: key = '#{tenant.id}' names no parameter");
    assertThat(bootLog)
        .contains(
            "Taskgate handler "
                + BadConcurrency.ExportHandler.class.getName()
                + ": @Concurrency limit must be between 1 and 1000000, was 0");
    for (String app : List.of("broken", "duplicate", "badlimit", "badconcurrency")) {
      HttpResponse<String> info =
          Http.get(URI.create("http://localhost:" + PORT + "/" + app + "/api/info"));
      assertThat(info.statusCode()).as(app + " must not answer").isEqualTo(404);
    }
  }

  /**
   * Started with --nohazelcast, as the README starts Micro: no data grid, so it joins no other
   * Payara's (with --nocluster alone it would join the grid of a Payara Server on this machine).
   */
  @Test
  void microRunsWithoutADataGrid() {
    assertThat(bootLog)
        .as("see " + log)
        .contains("hazelcast-config-specific-configuration.enabled=false")
        .doesNotContain("Data Grid Status")
        .doesNotContain("DG Size");
  }

  /**
   * A limit keyed by the caller: the signed-in user over JAX-RS, the client's address for a request
   * without login, {@code anonymous} on a thread with neither; and the application's own mapper of
   * refusals answers instead of Taskgate's.
   */
  @Test
  void callerKeysAndTheApplicationsOwnMapperOfRefusals() throws Exception {
    URI limited = api(PORT, "failopen-limited");
    assertThat(Http.send("GET", limited, null, "admin", "taskgate").statusCode()).isEqualTo(200);
    HttpResponse<String> refused = Http.send("GET", limited, null, "admin", "taskgate");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("X-Mapped-By"))
        .as("the application's mapper, not Taskgate's")
        .hasValue("application");
    assertThat(Http.json(refused).getString("key")).isEqualTo("admin");
    assertThat(Http.send("GET", limited, null, "viewer", "taskgate-viewer").statusCode())
        .as("another user")
        .isEqualTo(200);

    URI anonymous = URI.create("http://localhost:" + PORT + "/failopen/anonymous-limited");
    assertThat(Http.send("GET", anonymous, null, null, null).body())
        .as("the key of a request without login")
        .matches("ip:(127\\.0\\.0\\.1|0:0:0:0:0:0:0:1|::1)");
    assertThat(Http.send("GET", URI.create(anonymous + "?where=thread"), null, null, null).body())
        .as("the key on a managed thread, with no request and no caller")
        .isEqualTo("anonymous");
  }

  @Test
  void newKeysBeyondTheTrackedKeyCapRunUnthrottledWithAMonitoringEvent() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    for (int i = 1; i <= MAX_TRACKED_KEYS; i++) {
      awaitStatus(dispatch("tracked-" + run + "-" + i), "COMPLETED");
    }
    String tracked = "tracked-" + run + "-1";
    String untracked = "untracked-" + run;

    String parked = dispatch(tracked); // its key is tracked and spent: it waits an hour
    String first = dispatch(untracked);
    String second = dispatch(untracked); // tracked, this one would wait an hour too

    awaitStatus(first, "COMPLETED");
    awaitStatus(second, "COMPLETED");
    assertThat(status(parked)).isEqualTo("QUEUED");
    awaitLog("FAIL-OPEN-EVENT Rate limit failed open: key=" + untracked + " ");

    // the throttled view counts them: fail-opens at the key cap, the tracked key's parked task
    HttpResponse<String> view =
        Http.send(
            "GET",
            api(PORT, "rate-limits?type=HourlyReport&key=" + run + "&sort=parked"),
            null,
            "admin",
            "taskgate");
    assertThat(view.statusCode()).as(view.body()).isEqualTo(200);
    jakarta.json.JsonObject page = Http.json(view);
    jakarta.json.JsonObject totals = page.getJsonObject("totals");
    assertThat(totals.getJsonNumber("failOpenCount").longValue()).isGreaterThanOrEqualTo(2);
    assertThat(totals.getInt("trackedKeys")).isEqualTo(MAX_TRACKED_KEYS);
    assertThat(totals.getInt("maxTrackedKeys")).isEqualTo(MAX_TRACKED_KEYS);
    jakarta.json.JsonObject top = page.getJsonArray("items").getJsonObject(0);
    assertThat(top.getString("key")).isEqualTo(tracked);
    assertThat(top.getInt("parkedCount")).isEqualTo(1);
    assertThat(page.getInt("total")).isEqualTo(MAX_TRACKED_KEYS); // the untracked key is not a row
  }

  /**
   * An application's own keyed limiter ({@code @Alternative @Priority}) replaces Taskgate's: the
   * gate asks it (its policy, not the task type's, decides: the second task of a key waits an
   * hour), and its stats throwing breaks neither the throttled view nor the overview.
   */
  @Test
  void anApplicationsOwnLimiterReplacesTheDefaultAndItsFailingStatsBreakNothing() throws Exception {
    Path replacedLog = dir.resolve("replaced.log");
    Process replaced =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dtaskgate.examples.enabled=false",
                    "-jar",
                    ItConfig.required("payara.microJar"),
                    "--nohazelcast",
                    "--port",
                    String.valueOf(REPLACED_PORT),
                    "--deploy",
                    war("replaced", StrictLimiter.class.getPackage()).getAbsolutePath()))
            .redirectErrorStream(true)
            .redirectOutput(replacedLog.toFile())
            .start();
    try {
      assertThat(awaitBoot(replaced, replacedLog)).contains(" ready in ");
      String key = "replaced-" + UUID.randomUUID().toString().substring(0, 8);
      String first = dispatchTo("replaced", "Report", key);
      awaitStatusOf("replaced", first, "COMPLETED");
      String second = dispatchTo("replaced", "Report", key);

      awaitLogOf(replacedLog, "REPLACED-RAN " + key, 1);
      awaitLogOf(replacedLog, "REPLACED-LIMITER reserve " + key, 2); // the second asked it too
      // real time: the type's own policy (1000 a second) would have run it by now; the limiter's
      // (an hour) holds it
      Thread.sleep(1_000);
      assertThat(statusOf("replaced", second)).isEqualTo("QUEUED");
      HttpResponse<String> view = get("/replaced/api/rate-limits?key=" + key);
      assertThat(view.statusCode()).as(view.body()).isEqualTo(200);
      assertThat(Http.json(view).getJsonObject("totals").getInt("trackedKeys"))
          .as("a limiter that cannot count counts as none")
          .isZero();
      HttpResponse<String> overview = get("/replaced/api/overview");
      assertThat(overview.statusCode()).as(overview.body()).isEqualTo(200);
      assertThat(
              Http.send("DELETE", replacedApi("tasks/" + second), null, "admin", "taskgate")
                  .statusCode())
          .isEqualTo(204);
    } finally {
      stop(replaced);
    }
  }

  private static URI replacedApi(String path) {
    return URI.create("http://localhost:" + REPLACED_PORT + "/replaced/api/" + path);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return Http.send(
        "GET", URI.create("http://localhost:" + REPLACED_PORT + path), null, "admin", "taskgate");
  }

  /** Waits until {@code file} holds {@code text} at least {@code times} times. */
  private static void awaitLogOf(Path file, String text, int times) throws Exception {
    long deadline = System.nanoTime() + TASK_TIMEOUT.toNanos();
    while (Files.readString(file, StandardCharsets.UTF_8).split(Pattern.quote(text), -1).length - 1
        < times) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(file + " lacks " + times + " times: " + text);
      }
      Thread.sleep(100);
    }
  }

  private static String dispatchTo(String app, String type, String key) throws Exception {
    HttpResponse<String> response =
        Http.send(
            "POST",
            URI.create("http://localhost:" + REPLACED_PORT + "/" + app + "/api/tasks/" + type),
            "{\"key\":\"" + key + "\"}",
            "admin",
            "taskgate");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    return Http.json(response).getString("id");
  }

  private static String statusOf(String app, String id) throws Exception {
    HttpResponse<String> response =
        Http.send(
            "GET",
            URI.create("http://localhost:" + REPLACED_PORT + "/" + app + "/api/tasks/" + id),
            null,
            "admin",
            "taskgate");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Http.json(response).getString("status");
  }

  private static void awaitStatusOf(String app, String id, String wanted) throws Exception {
    long deadline = System.nanoTime() + TASK_TIMEOUT.toNanos();
    while (!statusOf(app, id).equals(wanted)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("task " + id + " is " + statusOf(app, id) + ", not " + wanted);
      }
      Thread.sleep(100);
    }
  }

  @Test
  void parkedTasksSurviveARestartAndRunAtTheirSlotsOnTheSavedBudget() throws Exception {
    Path root = dir.resolve("restart-root");
    File app = dir.resolve("failopen.war").toFile();
    String key = "restart-" + UUID.randomUUID().toString().substring(0, 8);
    String first;
    String parked;
    List<String> burst = new java.util.ArrayList<>();
    String burstParked;
    String emptyFirst;
    String emptyParked;
    Process server = start(root, app, dir.resolve("restart-1.log"));
    try {
      first = dispatch(RESTART_PORT, key);
      awaitStatus(RESTART_PORT, first, "COMPLETED");
      parked = dispatch(RESTART_PORT, key); // one per hour: parked, QUEUED in the store
      // a slot a minute, 3 back to back: 3 run, the 4th parks
      for (int i = 0; i < 3; i++) {
        burst.add(dispatch(RESTART_PORT, "MinutelyBurst", key));
      }
      burstParked = dispatch(RESTART_PORT, "MinutelyBurst", key);
      // the same policy starting empty: the first runs, the next waits a minute
      emptyFirst = dispatch(RESTART_PORT, "MinutelyStartEmpty", key);
      awaitStatus(RESTART_PORT, emptyFirst, "COMPLETED");
      emptyParked = dispatch(RESTART_PORT, "MinutelyStartEmpty", key);
      for (String id : burst) {
        awaitStatus(RESTART_PORT, id, "COMPLETED");
      }
      // real time passing is what is tested: the parked tasks do not run before their slots
      Thread.sleep(500);
      assertThat(status(RESTART_PORT, parked)).isEqualTo("QUEUED");
      assertThat(status(RESTART_PORT, burstParked)).isEqualTo("QUEUED");
      assertThat(status(RESTART_PORT, emptyParked)).isEqualTo("QUEUED");
    } finally {
      stop(server);
    }

    // the root directory keeps the application too: the restart deploys it from there, once
    Process restarted = start(root, null, dir.resolve("restart-2.log"));
    try {
      // recovered from the store; the key goes on from the budget its starts left, saved before
      // the stop: the parked tasks run at their slots, not at once on a fresh bucket
      // their slots: a minute after the burst, a minute after the first
      awaitStatus(RESTART_PORT, burstParked, "COMPLETED", Duration.ofMinutes(2));
      awaitStatus(RESTART_PORT, emptyParked, "COMPLETED", Duration.ofMinutes(2));
      assertThat(status(RESTART_PORT, first)).isEqualTo("COMPLETED");
      String burst2 = dispatch(RESTART_PORT, "MinutelyBurst", key);
      String empty2 = dispatch(RESTART_PORT, "MinutelyStartEmpty", key);
      // real time passing is what is tested: no second burst after the restart, and the hourly
      // key's parked task waits for its slot an hour after the first
      Thread.sleep(1000);
      assertThat(status(RESTART_PORT, burst2)).isEqualTo("QUEUED");
      assertThat(status(RESTART_PORT, empty2)).isEqualTo("QUEUED");
      assertThat(status(RESTART_PORT, parked)).isEqualTo("QUEUED");
      assertThat(Files.readString(dir.resolve("restart-2.log"), StandardCharsets.UTF_8))
          .contains("Taskgate restored the rate-limit budgets of");
    } finally {
      stop(restarted);
    }
  }

  /**
   * A Micro on {@value #RESTART_PORT} with a root directory that keeps its H2 database and its
   * deployed applications; {@code app} is deployed unless null (already in the root directory).
   */
  private static Process start(Path root, File app, Path output) throws Exception {
    return start(root, app, output, RESTART_PORT);
  }

  private static Process start(Path root, File app, Path output, int port) throws Exception {
    Files.createDirectories(root);
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dtaskgate.examples.enabled=false",
                "-jar",
                ItConfig.required("payara.microJar"),
                "--nohazelcast",
                "--rootdir",
                root.toAbsolutePath().toString(),
                "--port",
                String.valueOf(port)));
    if (app != null) {
      command.addAll(List.of("--deploy", app.getAbsolutePath()));
    }
    Process server =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    String started = awaitBoot(server, output);
    assertThat(started).as("see " + output).doesNotContain("Exception while loading the app");
    return server;
  }

  private static void stop(Process server) throws InterruptedException {
    server.destroy();
    if (!server.waitFor(60, TimeUnit.SECONDS)) {
      server.destroyForcibly().waitFor();
    }
  }

  private static String dispatch(String key) throws Exception {
    return dispatch(PORT, key);
  }

  private static String status(String id) throws Exception {
    return status(PORT, id);
  }

  private static void awaitStatus(String id, String wanted) throws Exception {
    awaitStatus(PORT, id, wanted);
  }

  private static String dispatch(int port, String key) throws Exception {
    return dispatch(port, "HourlyReport", key);
  }

  private static String dispatch(int port, String type, String key) throws Exception {
    HttpResponse<String> response =
        Http.send(
            "POST", api(port, "tasks/" + type), "{\"key\":\"" + key + "\"}", "admin", "taskgate");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    return Http.json(response).getString("id");
  }

  private static String status(int port, String id) throws Exception {
    HttpResponse<String> response =
        Http.send("GET", api(port, "tasks/" + id), null, "admin", "taskgate");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Http.json(response).getString("status");
  }

  private static void awaitStatus(int port, String id, String wanted) throws Exception {
    awaitStatus(port, id, wanted, TASK_TIMEOUT);
  }

  private static void awaitStatus(int port, String id, String wanted, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    String now = status(port, id);
    while (!now.equals(wanted)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("task " + id + " is " + now + ", not " + wanted);
      }
      Thread.sleep(100);
      now = status(port, id);
    }
  }

  private void awaitLog(String text) throws Exception {
    long deadline = System.nanoTime() + TASK_TIMEOUT.toNanos();
    while (!Files.readString(log, StandardCharsets.UTF_8).contains(text)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("'" + text + "' not in " + log);
      }
      Thread.sleep(100);
    }
  }

  private static URI api(int port, String path) {
    return URI.create("http://localhost:" + port + "/failopen/api/" + path);
  }

  private File war(String name, Package handlers) {
    File war = dir.resolve(name + ".war").toFile();
    ShrinkWrap.create(ZipImporter.class, name + ".war")
        .importFrom(new File(ItConfig.required("taskgate.war")))
        .as(WebArchive.class)
        .addPackage(handlers)
        .as(ZipExporter.class)
        .exportTo(war, true);
    return war;
  }

  /** Waits until Micro reports itself ready (with or without the application); its log so far. */
  private static String awaitBoot(Process micro, Path log)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + BOOT_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      String output = Files.readString(log, StandardCharsets.UTF_8);
      if (output.contains(" ready in ")) {
        return output;
      }
      if (!micro.isAlive()) {
        return output; // stopped on the failure: the log says why
      }
      Thread.sleep(500);
    }
    throw new AssertionError("Payara Micro did not finish booting in " + BOOT_TIMEOUT + ": " + log);
  }
}
