package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.store.schema.SchemaShape;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * This build started on a database that the build before versioned schemas wrote ({@code
 * src/test/resources/upgrade}, made by {@link UpgradeFixture}), on embedded H2 and on PostgreSQL:
 * the tables are recognised by their shape, baselined at version 1 and migrated on; the schema is
 * the one a fresh database gets, and every task finishes as it would have without the upgrade: the
 * parked ones at their key's pace (every start checked across both builds), the steps of an order
 * one at a time and the semaphore's tasks one at a time, each attempt the kill cut short once more,
 * the recurring series goes on, the rest once; the semaphore's definition and its change log, the
 * tasks' audit trails (in the API and on the task page) are the ones the earlier build wrote.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UpgradeIT {
  private static final Duration DONE_TIMEOUT = Duration.ofMinutes(3);

  private final Path dir = Path.of("target", "upgrade-it").toAbsolutePath();
  private Process current;
  private Browser browser;

  @AfterEach
  void killLeftover() throws InterruptedException {
    if (current != null && current.isAlive()) {
      current.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  @AfterAll
  void closeBrowser() throws IOException {
    if (browser != null) {
      browser.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2", "postgresql"})
  void theBuildBeforesDatabaseIsBaselinedAndEveryTaskFinishesAsItWould(String db) throws Exception {
    Path run = dir.resolve(db);
    MicroRuns.deleteTree(run);
    Files.createDirectories(run);
    Properties ids = new Properties();
    try (Reader in = resourceReader(db + "-tasks.properties")) {
      ids.load(in);
    }
    Path ledger = run.resolve("ledger.txt");
    try (InputStream in = resource(db + "-ledger.txt")) {
      Files.copy(in, ledger, StandardCopyOption.REPLACE_EXISTING);
    }
    restore(db, run);
    try (Connection c = connect(db, run)) {
      assertThat(tables(c, db)).as("no history before").doesNotContain("taskgate_schema_history");
      assertThat(count(c, "taskgate_task")).isEqualTo(ids.size());
      assertThat(count(c, "taskgate_task_audit")).isGreaterThan(ids.size());
      assertThat(count(c, "taskgate_throttler")).isEqualTo(1);
      assertThat(count(c, "taskgate_throttler_change")).isEqualTo(1);
      assertThat(count(c, "taskgate_minute_count")).isPositive();
    }
    Map<String, Integer> startsBefore = starts(ledger, null);
    Files.writeString(ledger, "boot 2\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

    Instant upgraded = Instant.now();
    current = UpgradeFixture.start(db, run, UpgradeFixture.war(run), ledger, "upgrade.log");
    assertThat(Files.readString(run.resolve("upgrade.log"), StandardCharsets.UTF_8))
        .contains(
            "Taskgate's tables have no history but version 1's shape: they are baselined there");

    // every task that is not recurring completes
    for (String name : ids.stringPropertyNames()) {
      if (!name.equals("tick")) {
        awaitStatus(ids.getProperty(name), name, "COMPLETED");
      }
    }
    UpgradeFixture.awaitStarts(ledger, List.of("tick"));
    Map<String, Integer> startsAfter = starts(ledger, "boot 2");
    for (String name : ids.stringPropertyNames()) {
      int before = startsBefore.getOrDefault(name, 0);
      int after = startsAfter.getOrDefault(name, 0);
      if (name.equals("tick")) {
        assertThat(before).as("the series ran before the upgrade").isGreaterThanOrEqualTo(3);
      } else if (List.of("step-1", "slot-1", "long").contains(name)) {
        assertThat(before).as(name + " was running at the kill").isEqualTo(1);
        assertThat(after).as(name + ", cut short, runs once more").isEqualTo(1);
        assertThat(history(ids.getProperty(name)))
            .anyMatch(change -> change.getString("detail", "").startsWith("interrupted: attempt "));
      } else {
        assertThat(before + after).as("starts of " + name).isEqualTo(1);
      }
    }
    assertOneAtATime(ledger, List.of("step-1", "step-2", "step-3"));
    assertOneAtATime(ledger, List.of("slot-1", "slot-2", "slot-3"));
    System.out.printf("UpgradeIT %s: %s%n", db, paced(ledger, upgraded).assertConforms());

    // the series goes on: two more occurrences, counted on the same task
    UpgradeFixture.awaitStarts(ledger, List.of("tick"));
    awaitTicksAfterUpgrade(ledger, 2);
    JsonObject tick = task(ids.getProperty("tick"));
    assertThat(tick.getString("status")).isEqualTo("QUEUED");
    assertThat(tick.getJsonNumber("runs").longValue())
        .isGreaterThanOrEqualTo(startsBefore.get("tick") + 2L);

    // what the earlier build recorded
    JsonObject throttlers =
        Http.json(Http.send("GET", UpgradeFixture.api("throttlers"), null, "admin", "taskgate"));
    JsonObject slots =
        throttlers.getJsonArray("throttlers").getValuesAs(JsonObject.class).stream()
            .filter(t -> t.getString("id").equals("upgrade-slots"))
            .findFirst()
            .orElseThrow();
    assertThat(slots.getString("kind")).isEqualTo("semaphore");
    assertThat(slots.getInt("limit")).isEqualTo(1);
    JsonObject change =
        throttlers.getJsonArray("changes").getValuesAs(JsonObject.class).stream()
            .filter(c -> c.getString("id").equals("upgrade-slots"))
            .findFirst()
            .orElseThrow();
    assertThat(change.getString("by")).isEqualTo("admin");
    assertThat(Instant.parse(change.getString("at"))).isBefore(upgraded);
    List<JsonObject> plain = history(ids.getProperty("plain-0"));
    assertThat(plain).hasSizeGreaterThanOrEqualTo(3);
    assertThat(plain).allMatch(c -> Instant.parse(c.getString("at")).isBefore(upgraded));
    assertTaskPageShowsHistory(ids.getProperty("long"));

    if (db.equals("postgresql")) {
      assertSchemaIsAFreshOne(db, run);
    }
    current.destroy();
    assertThat(current.waitFor(60, TimeUnit.SECONDS)).isTrue();
    if (db.equals("h2")) {
      assertSchemaIsAFreshOne(db, run); // the embedded file, once the server let it go
    }
  }

  /**
   * A DBA's way: the SQL of versions 1 to 5 applied with {@code psql} to an empty PostgreSQL
   * database, then Taskgate deployed with {@code taskgate.schema.migrate=validate}, and again with
   * {@code none}: both start and run tasks, and neither runs a single DDL statement (counted by an
   * event trigger on {@code ddl_command_start}).
   */
  @Test
  void theSqlFilesAppliedWithPsqlStartWithValidateAndNeitherValidateNorNoneRunsDdl()
      throws Exception {
    Path run = dir.resolve("by-hand");
    MicroRuns.deleteTree(run);
    Files.createDirectories(run);
    MicroRuns.recreateDatabase(UpgradeFixture.PG_DATABASE);
    for (String script :
        List.of(
            "V1__baseline.sql",
            "V2__task_ended_index.sql",
            "V3__pause.sql",
            "V4__unique.sql",
            "V5__trace_parent.sql",
            "V6__rate_budget.sql")) {
      Path file = run.resolve(script);
      try (InputStream in =
          UpgradeIT.class.getResourceAsStream("/db/taskgate/postgresql/" + script)) {
        assertThat(in).as("the SQL in the EJB jar").isNotNull();
        Files.copy(in, file);
      }
      psql(run, file, "psql-" + script + ".log");
    }
    countDdl();
    Path ledger = run.resolve("ledger.txt");
    File war = UpgradeFixture.war(run);

    current =
        UpgradeFixture.start(
            "postgresql", run, war, ledger, "validate.log", "-Dtaskgate.schema.migrate=validate");
    assertThat(Files.readString(run.resolve("validate.log"), StandardCharsets.UTF_8))
        .contains(
            "Taskgate's tables have its schema's version 6 on PostgreSQL (applied without"
                + " taskgate_schema_history)");
    awaitStatus(plain("v"), "v", "COMPLETED");
    current.destroy();
    assertThat(current.waitFor(60, TimeUnit.SECONDS)).isTrue();

    current =
        UpgradeFixture.start(
            "postgresql", run, war, ledger, "none.log", "-Dtaskgate.schema.migrate=none");
    awaitStatus(plain("n"), "n", "COMPLETED");
    current.destroy();
    assertThat(current.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(ddlStatements()).as("DDL run by Taskgate").isEmpty();
    try (Connection c = MicroRuns.connect(UpgradeFixture.PG_DATABASE);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE counted (x INTEGER)"); // the counter counts
    }
    assertThat(ddlStatements()).containsExactly("CREATE TABLE");
  }

  /**
   * {@code validate} on a database without Taskgate's tables: the deployment fails, saying what is
   * missing and where the SQL files are, and changes nothing.
   */
  @Test
  void validateStopsTheDeploymentOfADatabaseWithoutTheSchemaNamingTheFiles() throws Exception {
    Path run = dir.resolve("validate-empty");
    MicroRuns.deleteTree(run);
    Files.createDirectories(run);
    MicroRuns.recreateDatabase(UpgradeFixture.PG_DATABASE);
    countDdl();

    current =
        UpgradeFixture.launch(
            "postgresql",
            run,
            UpgradeFixture.war(run),
            run.resolve("ledger.txt"),
            "validate.log",
            "-Dtaskgate.schema.migrate=validate");
    Path log = run.resolve("validate.log");
    Await.until(
        () ->
            Files.readString(log, StandardCharsets.UTF_8)
                .contains("Exception while loading the app"),
        Boolean::booleanValue,
        Duration.ofMinutes(4),
        Duration.ofMillis(250),
        seen -> "the deployment did not fail: " + log);
    assertThat(Files.readString(log, StandardCharsets.UTF_8))
        .contains(
            "taskgate.schema.migrate=validate and the database has no taskgate_schema_history and"
                + " not this build's schema (version 6): table taskgate_budget_mark is missing")
        .contains("The SQL files are db/taskgate/postgresql/V1__… to V6__… in Taskgate's EJB jar");
    assertThat(Http.get(UpgradeFixture.api("info")).statusCode()).isEqualTo(404);
    assertThat(ddlStatements()).isEmpty();
    try (Connection c = MicroRuns.connect(UpgradeFixture.PG_DATABASE)) {
      assertThat(tables(c, "postgresql")).containsExactly("ddl_log");
    }
  }

  private static String plain(String id) throws Exception {
    return UpgradeFixture.dispatch("Plain", "{\"id\":\"" + id + "\",\"workMillis\":1}", "");
  }

  /** Counts every DDL statement from now on in {@code ddl_log} (an event trigger). */
  private static void countDdl() throws Exception {
    try (Connection c = MicroRuns.connect(UpgradeFixture.PG_DATABASE);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE ddl_log (tag TEXT, query TEXT)");
      s.execute(
          "CREATE FUNCTION log_ddl() RETURNS event_trigger LANGUAGE plpgsql AS"
              + " $$ BEGIN INSERT INTO ddl_log VALUES (tg_tag, current_query()); END $$");
      s.execute("CREATE EVENT TRIGGER count_ddl ON ddl_command_start EXECUTE FUNCTION log_ddl()");
    }
  }

  /** The DDL statements counted so far, their command tags (each printed with its text). */
  private static List<String> ddlStatements() throws Exception {
    List<String> tags = new ArrayList<>();
    try (Connection c = MicroRuns.connect(UpgradeFixture.PG_DATABASE);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT tag, query FROM ddl_log")) {
      while (r.next()) {
        tags.add(r.getString(1));
        System.out.println("UpgradeIT: DDL " + r.getString(2));
      }
    }
    return tags;
  }

  private static void psql(Path run, Path script, String logName) throws Exception {
    Process psql =
        new ProcessBuilder(
                "psql",
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                "127.0.0.1",
                "-U",
                "postgres",
                "-d",
                UpgradeFixture.PG_DATABASE,
                "-f",
                script.toString())
            .redirectErrorStream(true)
            .redirectOutput(run.resolve(logName).toFile())
            .start();
    assertThat(psql.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(psql.exitValue()).as(Files.readString(run.resolve(logName))).isZero();
  }

  /** Table by table, column by column, index by index: the shape a fresh database gets. */
  private static void assertSchemaIsAFreshOne(String db, Path run) throws Exception {
    SchemaShape fresh =
        SchemaShape.load(UpgradeIT.class.getClassLoader(), "db/taskgate-shape/" + db + "/V6.txt");
    try (Connection c = connect(db, run)) {
      assertThat(SchemaShape.read(c, db.equals("h2") ? "PUBLIC" : "public").text())
          .isEqualTo(fresh.text());
      try (Statement s = c.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SELECT \"version\", \"type\" FROM \"taskgate_schema_history\""
                      + " WHERE \"version\" IS NOT NULL ORDER BY \"installed_rank\"")) {
        List<String> rows = new ArrayList<>();
        while (r.next()) {
          rows.add(r.getString(1) + " " + r.getString(2));
        }
        assertThat(rows).containsExactly("1 BASELINE", "2 SQL", "3 SQL", "4 SQL", "5 SQL", "6 SQL");
      }
    }
  }

  private void assertTaskPageShowsHistory(String id) throws Exception {
    List<JsonObject> history = history(id);
    if (browser == null) {
      browser = Browser.start();
    }
    String base = "http://localhost:" + UpgradeFixture.PORT + "/taskgate/";
    browser.open(base + "login.xhtml");
    browser.find(By.id("login:username")).sendKeys("admin");
    browser.find(By.id("login:password")).sendKeys("taskgate");
    browser.find(By.id("login:submit")).click();
    browser.await("the overview", ExpectedConditions.urlContains("/admin/overview.xhtml"));
    browser.open(base + "admin/task.xhtml?id=" + id);
    browser.find(By.id("history"));
    List<WebElement> rows = browser.driver().findElements(By.cssSelector("#history tbody tr"));
    assertThat(rows).hasSameSizeAs(history);
    assertThat(rows.get(0).getText()).contains("stored as");
    WebElement first = rows.get(0).findElement(By.tagName("time"));
    assertThat(Instant.parse(first.getAttribute("datetime")).truncatedTo(ChronoUnit.SECONDS))
        .isEqualTo(Instant.parse(history.get(0).getString("at")).truncatedTo(ChronoUnit.SECONDS));
    assertThat(browser.pageText()).contains("interrupted: attempt");
    browser.screenshot("upgrade-task-history");
  }

  /**
   * The starts of one order's steps (or of the semaphore's tasks) never overlap, in the new run.
   */
  private static void assertOneAtATime(Path ledger, List<String> names) throws IOException {
    List<String> lines = linesAfter(ledger, "boot 2");
    String running = null;
    for (String line : lines) {
      String[] f = line.split(" ");
      if (f.length < 3 || !names.contains(f[2])) {
        continue;
      }
      if (f[0].equals("start")) {
        assertThat(running).as("started " + f[2] + " while " + running + " ran").isNull();
        running = f[2];
      } else if (f[0].equals("end")) {
        assertThat(f[2]).isEqualTo(running);
        running = null;
      }
    }
  }

  /** Every start of the paced key, in both builds, against its policy (1 per 2 s, burst 1). */
  private static Conformance.Run paced(Path ledger, Instant upgraded) throws IOException {
    Conformance.Run run = Conformance.run();
    Conformance.Policy policy = Conformance.Policy.of(1, Duration.ofSeconds(2), 1);
    for (String line : Files.readAllLines(ledger, StandardCharsets.UTF_8)) {
      String[] f = line.split(" ");
      if (f.length == 6 && f[0].equals("start") && !f[4].equals("-")) {
        run.key(f[4], policy)
            .started(
                new Conformance.Start(
                    Instant.EPOCH.plus(Long.parseLong(f[5]), ChronoUnit.MICROS),
                    f[1],
                    "attempt " + f[3]));
      }
    }
    run.rebornAt(upgraded);
    assertThat(run.starts()).isEqualTo(6);
    return run;
  }

  /** Starts per ledger id, after the line {@code mark} (all when null). */
  private static Map<String, Integer> starts(Path ledger, String mark) throws IOException {
    Map<String, Integer> starts = new HashMap<>();
    List<String> lines =
        mark == null
            ? Files.readAllLines(ledger, StandardCharsets.UTF_8)
            : linesAfter(ledger, mark);
    for (String line : lines) {
      if (line.startsWith("start ")) {
        starts.merge(line.split(" ")[2], 1, Integer::sum);
      }
    }
    return starts;
  }

  private static List<String> linesAfter(Path ledger, String mark) throws IOException {
    List<String> lines = Files.readAllLines(ledger, StandardCharsets.UTF_8);
    return lines.subList(lines.indexOf(mark) + 1, lines.size());
  }

  private static void awaitTicksAfterUpgrade(Path ledger, int n) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
    while (starts(ledger, "boot 2").getOrDefault("tick", 0) < n) {
      assertThat(Instant.now()).as("%d occurrences after the upgrade", n).isBefore(deadline);
      TimeUnit.MILLISECONDS.sleep(200);
    }
  }

  private static void awaitStatus(String id, String name, String status) throws Exception {
    Instant deadline = Instant.now().plus(DONE_TIMEOUT);
    JsonObject task = task(id);
    while (!task.getString("status").equals(status)) {
      assertThat(Instant.now()).as(name + " " + task).isBefore(deadline);
      TimeUnit.MILLISECONDS.sleep(200);
      task = task(id);
    }
  }

  private static JsonObject task(String id) throws Exception {
    HttpResponse<String> response =
        Http.send("GET", UpgradeFixture.api("tasks/" + id), null, "admin", "taskgate");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Http.json(response);
  }

  private static List<JsonObject> history(String id) throws Exception {
    JsonArray history = task(id).getJsonArray("history");
    return history.getValuesAs(JsonObject.class);
  }

  /** The fixture's database, as the earlier build left it. */
  private static void restore(String db, Path run) throws Exception {
    Path script = run.resolve(db + ".sql");
    try (InputStream in = resource(db + ".sql")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    if (db.equals("postgresql")) {
      MicroRuns.recreateDatabase(UpgradeFixture.PG_DATABASE);
      psql(run, script, "psql.log");
    } else {
      Files.createDirectories(run.resolve("data"));
      try (Connection c = DriverManager.getConnection(UpgradeFixture.h2Url(run), "", "");
          Statement s = c.createStatement()) {
        s.execute("RUNSCRIPT FROM '" + script + "'");
      }
    }
  }

  private static Connection connect(String db, Path run) throws Exception {
    return db.equals("postgresql")
        ? MicroRuns.connect(UpgradeFixture.PG_DATABASE)
        : DriverManager.getConnection(UpgradeFixture.h2Url(run), "", "");
  }

  private static List<String> tables(Connection c, String db) throws Exception {
    List<String> tables = new ArrayList<>();
    try (ResultSet r =
        c.getMetaData()
            .getTables(null, db.equals("h2") ? "PUBLIC" : "public", "%", new String[] {"TABLE"})) {
      while (r.next()) {
        tables.add(r.getString("TABLE_NAME").toLowerCase(java.util.Locale.ROOT));
      }
    }
    return tables;
  }

  private static long count(Connection c, String table) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      r.next();
      return r.getLong(1);
    }
  }

  private static InputStream resource(String name) {
    InputStream in = UpgradeIT.class.getResourceAsStream("/upgrade/" + name);
    assertThat(in).as("the fixture's " + name).isNotNull();
    return in;
  }

  private static Reader resourceReader(String name) {
    return new java.io.InputStreamReader(resource(name), StandardCharsets.UTF_8);
  }
}
